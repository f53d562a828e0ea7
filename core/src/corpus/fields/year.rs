//! Years: the first plausible four-digit year in a date as records write
//! it.

/// Years a paper may have: 1000 to 2999.
const YEARS: std::ops::RangeInclusive<i64> = 1000..=2999;

/// `n` when it is a plausible year (1000–2999): a number a record gives
/// as its year, or a CSL-JSON `date-parts` item.
pub fn plausible_year(n: i64) -> Option<i32> {
    YEARS.contains(&n).then_some(n as i32)
}

/// The first run of exactly four digits in `s` that is a plausible year:
/// `2019`, `{2019}`, `2019-05-01`, `May 2019`, `2012/07/03`, `2019//`,
/// `Mon, 2 Apr 2007 19:18:42 GMT`, `c. 1850–1900`. Longer runs
/// (`12345`) and implausible ones (`0999`) are passed over.
pub fn year_in(s: &str) -> Option<i32> {
    let b = s.as_bytes();
    let mut i = 0;
    while i < b.len() {
        if !b[i].is_ascii_digit() {
            i += 1;
            continue;
        }
        let start = i;
        while i < b.len() && b[i].is_ascii_digit() {
            i += 1;
        }
        if i - start == 4
            && let Ok(y) = s[start..i].parse::<i64>()
            && let Some(y) = plausible_year(y)
        {
            return Some(y);
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn years_as_records_write_them() {
        for (s, want) in [
            ("2019", Some(2019)),
            ("{2019}", Some(2019)),
            ("2019-05-01", Some(2019)),
            ("May 2019", Some(2019)),
            ("2012/07/03", Some(2012)),
            ("2019//", Some(2019)),
            ("Mon, 2 Apr 2007 19:18:42 GMT", Some(2007)),
            ("c. 1850–1900", Some(1850)),
            ("1999/2000", Some(1999)),
            ("0999 then 2001", Some(2001)),
            ("12345 0999 x", None),
            ("12345", None),
            ("3019", None),
            ("in press", None),
            ("", None),
        ] {
            assert_eq!(year_in(s), want, "{s:?}");
        }
    }

    #[test]
    fn numbers_and_date_parts() {
        assert_eq!(plausible_year(2019), Some(2019));
        assert_eq!(plausible_year(999), None);
        assert_eq!(plausible_year(3000), None);
        // CSL-JSON's `issued: {"date-parts": [[2019, 5, 1]]}` is read by
        // the JSON reader with this rule.
        let csl = r#"[{"title": "T", "issued": {"date-parts": [[2019, 5, 1]]}}]"#;
        assert_eq!(crate::corpus::json::parse(csl).records[0].year, Some(2019));
    }
}
