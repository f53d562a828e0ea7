//! The tables behind the markup renderer: LaTeX commands to Unicode,
//! super- and subscript forms, accents and math alphabets.

use unicode_normalization::UnicodeNormalization;

/// A math-mode command (`\times`, `\alpha`, `\leq`) as Unicode.
pub fn math_symbol(name: &str) -> Option<&'static str> {
    Some(match name {
        // Greek, lower case.
        "alpha" => "α",
        "beta" => "β",
        "gamma" => "γ",
        "delta" => "δ",
        "epsilon" => "ϵ",
        "varepsilon" => "ε",
        "zeta" => "ζ",
        "eta" => "η",
        "theta" => "θ",
        "vartheta" => "ϑ",
        "iota" => "ι",
        "kappa" => "κ",
        "lambda" => "λ",
        "mu" => "μ",
        "nu" => "ν",
        "xi" => "ξ",
        "omicron" => "ο",
        "pi" => "π",
        "varpi" => "ϖ",
        "rho" => "ρ",
        "varrho" => "ϱ",
        "sigma" => "σ",
        "varsigma" => "ς",
        "tau" => "τ",
        "upsilon" => "υ",
        "phi" => "ϕ",
        "varphi" => "φ",
        "chi" => "χ",
        "psi" => "ψ",
        "omega" => "ω",
        // Greek, upper case.
        "Gamma" => "Γ",
        "Delta" => "Δ",
        "Theta" => "Θ",
        "Lambda" => "Λ",
        "Xi" => "Ξ",
        "Pi" => "Π",
        "Sigma" => "Σ",
        "Upsilon" => "Υ",
        "Phi" => "Φ",
        "Psi" => "Ψ",
        "Omega" => "Ω",
        "varGamma" => "Γ",
        "varDelta" => "Δ",
        "varTheta" => "Θ",
        "varLambda" => "Λ",
        "varXi" => "Ξ",
        "varPi" => "Π",
        "varSigma" => "Σ",
        "varUpsilon" => "Υ",
        "varPhi" => "Φ",
        "varPsi" => "Ψ",
        "varOmega" => "Ω",
        // Operators and relations.
        "times" => "×",
        "cdot" | "cdotp" => "·",
        "div" => "÷",
        "pm" => "±",
        "mp" => "∓",
        "approx" => "≈",
        "sim" => "∼",
        "simeq" => "≃",
        "cong" => "≅",
        "equiv" => "≡",
        "neq" | "ne" => "≠",
        "leq" | "le" | "leqslant" => "≤",
        "geq" | "ge" | "geqslant" => "≥",
        "ll" => "≪",
        "gg" => "≫",
        "lesssim" => "≲",
        "gtrsim" => "≳",
        "propto" => "∝",
        "infty" => "∞",
        "partial" => "∂",
        "nabla" => "∇",
        "sum" => "∑",
        "prod" => "∏",
        "int" => "∫",
        "oint" => "∮",
        "in" => "∈",
        "notin" => "∉",
        "ni" => "∋",
        "subset" => "⊂",
        "subseteq" => "⊆",
        "supset" => "⊃",
        "supseteq" => "⊇",
        "cup" => "∪",
        "cap" => "∩",
        "bigcup" => "⋃",
        "bigcap" => "⋂",
        "emptyset" | "varnothing" => "∅",
        "forall" => "∀",
        "exists" => "∃",
        "neg" | "lnot" => "¬",
        "land" | "wedge" => "∧",
        "lor" | "vee" => "∨",
        "to" | "rightarrow" => "→",
        "leftarrow" | "gets" => "←",
        "leftrightarrow" => "↔",
        "Rightarrow" | "implies" => "⇒",
        "Leftarrow" => "⇐",
        "Leftrightarrow" | "iff" => "⇔",
        "mapsto" => "↦",
        "uparrow" => "↑",
        "downarrow" => "↓",
        "longrightarrow" => "⟶",
        "ell" => "ℓ",
        "hbar" => "ℏ",
        "Re" => "ℜ",
        "Im" => "ℑ",
        "aleph" => "ℵ",
        "circ" => "∘",
        "bullet" => "•",
        "star" => "⋆",
        "ast" => "∗",
        "prime" => "′",
        "mid" => "∣",
        "parallel" => "∥",
        "perp" | "bot" => "⊥",
        "top" => "⊤",
        "angle" => "∠",
        "triangle" => "△",
        "square" => "□",
        "langle" => "⟨",
        "rangle" => "⟩",
        "lceil" => "⌈",
        "rceil" => "⌉",
        "lfloor" => "⌊",
        "rfloor" => "⌋",
        "lvert" | "rvert" | "vert" => "|",
        "lVert" | "rVert" | "Vert" => "‖",
        "cdots" => "⋯",
        "vdots" => "⋮",
        "ddots" => "⋱",
        "vdash" => "⊢",
        "models" => "⊨",
        "oplus" => "⊕",
        "otimes" => "⊗",
        "odot" => "⊙",
        "setminus" => "∖",
        "colon" => ":",
        "lbrace" => "{",
        "rbrace" => "}",
        "checkmark" => "✓",
        _ => return None,
    })
}

/// Function names written upright in math (`\log`, `\max`).
pub fn math_function(name: &str) -> Option<&'static str> {
    const NAMES: &[&str] = &[
        "log", "ln", "exp", "sin", "cos", "tan", "tanh", "sinh", "cosh", "max", "min", "arg",
        "argmax", "argmin", "lim", "sup", "inf", "det", "dim", "ker", "Pr", "deg", "gcd", "mod",
        "sgn", "softmax", "KL",
    ];
    NAMES.iter().find(|n| **n == name).copied()
}

/// A text-mode command that stands for a character (`\ldots`, `\ss`).
pub fn text_symbol(name: &str) -> Option<&'static str> {
    Some(match name {
        "ldots" | "dots" | "textellipsis" => "…",
        "textendash" => "–",
        "textemdash" => "—",
        "textquoteleft" => "‘",
        "textquoteright" => "’",
        "textquotedblleft" => "“",
        "textquotedblright" => "”",
        "textasciitilde" => "~",
        "textasciicircum" => "^",
        "textbackslash" => "\\",
        "textbar" => "|",
        "textless" => "<",
        "textgreater" => ">",
        "textdegree" => "°",
        "textregistered" => "®",
        "texttrademark" => "™",
        "copyright" | "textcopyright" => "©",
        "S" | "textsection" => "§",
        "P" | "textparagraph" => "¶",
        "dag" | "textdagger" => "†",
        "ddag" | "textdaggerdbl" => "‡",
        "ss" => "ß",
        "o" => "ø",
        "O" => "Ø",
        "aa" => "å",
        "AA" => "Å",
        "ae" => "æ",
        "AE" => "Æ",
        "oe" => "œ",
        "OE" => "Œ",
        "l" => "ł",
        "L" => "Ł",
        "i" => "ı",
        "j" => "ȷ",
        "dh" => "ð",
        "DH" => "Ð",
        "th" => "þ",
        "TH" => "Þ",
        "ng" => "ŋ",
        "NG" => "Ŋ",
        "dj" => "đ",
        "DJ" => "Đ",
        "textquotesingle" => "'",
        "textquotedbl" => "\"",
        "guillemotleft" | "guillemetleft" => "«",
        "guillemotright" | "guillemetright" => "»",
        "guilsinglleft" => "‹",
        "guilsinglright" => "›",
        "quotedblbase" => "„",
        "quotesinglbase" => "‚",
        "textcent" => "¢",
        "textsterling" => "£",
        "textyen" => "¥",
        "textordfeminine" => "ª",
        "textordmasculine" => "º",
        "textdiv" => "÷",
        "textunderscore" => "_",
        "textasteriskcentered" => "*",
        "LaTeX" => "LaTeX",
        "TeX" => "TeX",
        "BibTeX" => "BibTeX",
        "euro" | "texteuro" => "€",
        "textmu" => "µ",
        "texttimes" => "×",
        "textbullet" => "•",
        "textperiodcentered" => "·",
        "slash" => "/",
        "hyphen" => "-",
        "textexclamdown" => "¡",
        "textquestiondown" => "¿",
        "textpm" => "±",
        "textonehalf" => "½",
        "pounds" => "£",
        "newline" | "par" | "linebreak" => " ",
        "noindent" | "relax" | "protect" | "xspace" | "ignorespaces" | "unskip" => "",
        _ => return None,
    })
}

/// The combining mark for an accent command.
pub fn accent_mark(accent: char) -> Option<char> {
    Some(match accent {
        '\'' => '\u{0301}',
        '`' => '\u{0300}',
        '^' => '\u{0302}',
        '"' => '\u{0308}',
        '~' => '\u{0303}',
        '=' => '\u{0304}',
        '.' => '\u{0307}',
        'u' => '\u{0306}',
        'v' => '\u{030C}',
        'H' => '\u{030B}',
        'c' => '\u{0327}',
        'k' => '\u{0328}',
        'r' => '\u{030A}',
        'd' => '\u{0323}',
        'b' => '\u{0331}',
        _ => return None,
    })
}

/// `base` with the combining `mark`, composed (NFC) as far as Unicode
/// composes it; the mark stays combining where no precomposed form exists.
pub fn compose_str(base: char, mark: char) -> String {
    [base, mark].iter().collect::<String>().nfc().collect()
}

/// `base` with the combining `mark`, composed into one character where
/// Unicode has one (else the base alone, which reads better than a stray
/// combining mark).
pub fn compose(base: char, mark: char) -> char {
    let s: String = [base, mark].iter().collect::<String>().nfc().collect();
    let mut chars = s.chars();
    match (chars.next(), chars.next()) {
        (Some(c), None) => c,
        _ => base,
    }
}

fn superscript(c: char) -> Option<char> {
    Some(match c {
        '0' => '⁰',
        '1' => '¹',
        '2' => '²',
        '3' => '³',
        '4' => '⁴',
        '5' => '⁵',
        '6' => '⁶',
        '7' => '⁷',
        '8' => '⁸',
        '9' => '⁹',
        '+' => '⁺',
        '-' | '\u{2212}' => '⁻',
        '=' => '⁼',
        '(' => '⁽',
        ')' => '⁾',
        'a' => 'ᵃ',
        'b' => 'ᵇ',
        'c' => 'ᶜ',
        'd' => 'ᵈ',
        'e' => 'ᵉ',
        'f' => 'ᶠ',
        'g' => 'ᵍ',
        'h' => 'ʰ',
        'i' => 'ⁱ',
        'j' => 'ʲ',
        'k' => 'ᵏ',
        'l' => 'ˡ',
        'm' => 'ᵐ',
        'n' => 'ⁿ',
        'o' => 'ᵒ',
        'p' => 'ᵖ',
        'r' => 'ʳ',
        's' => 'ˢ',
        't' => 'ᵗ',
        'u' => 'ᵘ',
        'v' => 'ᵛ',
        'w' => 'ʷ',
        'x' => 'ˣ',
        'y' => 'ʸ',
        'z' => 'ᶻ',
        'A' => 'ᴬ',
        'B' => 'ᴮ',
        'D' => 'ᴰ',
        'E' => 'ᴱ',
        'G' => 'ᴳ',
        'H' => 'ᴴ',
        'I' => 'ᴵ',
        'J' => 'ᴶ',
        'K' => 'ᴷ',
        'L' => 'ᴸ',
        'M' => 'ᴹ',
        'N' => 'ᴺ',
        'O' => 'ᴼ',
        'P' => 'ᴾ',
        'R' => 'ᴿ',
        'T' | '⊤' => 'ᵀ',
        'U' => 'ᵁ',
        'V' => 'ⱽ',
        'W' => 'ᵂ',
        'α' => 'ᵅ',
        'β' => 'ᵝ',
        'γ' => 'ᵞ',
        'δ' => 'ᵟ',
        'ε' | 'ϵ' => 'ᵋ',
        'θ' => 'ᶿ',
        'φ' | 'ϕ' => 'ᵠ',
        'χ' => 'ᵡ',
        '*' | '∗' => '*',
        '′' => '′',
        '†' => '†',
        _ => return None,
    })
}

fn subscript(c: char) -> Option<char> {
    Some(match c {
        '0' => '₀',
        '1' => '₁',
        '2' => '₂',
        '3' => '₃',
        '4' => '₄',
        '5' => '₅',
        '6' => '₆',
        '7' => '₇',
        '8' => '₈',
        '9' => '₉',
        '+' => '₊',
        '-' | '\u{2212}' => '₋',
        '=' => '₌',
        '(' => '₍',
        ')' => '₎',
        'a' => 'ₐ',
        'e' => 'ₑ',
        'h' => 'ₕ',
        'i' => 'ᵢ',
        'j' => 'ⱼ',
        'k' => 'ₖ',
        'l' => 'ₗ',
        'm' => 'ₘ',
        'n' => 'ₙ',
        'o' => 'ₒ',
        'p' => 'ₚ',
        'r' => 'ᵣ',
        's' => 'ₛ',
        't' => 'ₜ',
        'u' => 'ᵤ',
        'v' => 'ᵥ',
        'x' => 'ₓ',
        'β' => 'ᵦ',
        'γ' => 'ᵧ',
        'ρ' => 'ᵨ',
        'φ' | 'ϕ' => 'ᵩ',
        'χ' => 'ᵪ',
        _ => return None,
    })
}

/// `text` as super- (`sup`) or subscript, when every character has a form.
pub fn script(text: &str, sup: bool) -> Option<String> {
    let text = text.trim();
    if text.is_empty() {
        return None;
    }
    text.chars()
        .map(|c| if sup { superscript(c) } else { subscript(c) })
        .collect()
}

/// A math alphabet: where its capitals, small letters and digits start in
/// Unicode, and the letters that live elsewhere (ℝ, ℒ).
type Alphabet = (u32, Option<u32>, Option<u32>, &'static [(char, char)]);

/// A letter in a math alphabet (`\mathbb{R}` → ℝ, `\mathcal{L}` → ℒ).
pub fn alphabet(name: &str, c: char) -> Option<char> {
    let (upper, lower, digit, holes): Alphabet = match name {
        "mathbb" => (
            0x1D538,
            Some(0x1D552),
            Some(0x1D7D8),
            &[
                ('C', 'ℂ'),
                ('H', 'ℍ'),
                ('N', 'ℕ'),
                ('P', 'ℙ'),
                ('Q', 'ℚ'),
                ('R', 'ℝ'),
                ('Z', 'ℤ'),
            ],
        ),
        "mathcal" | "mathscr" => (
            0x1D49C,
            Some(0x1D4B6),
            None,
            &[
                ('B', 'ℬ'),
                ('E', 'ℰ'),
                ('F', 'ℱ'),
                ('H', 'ℋ'),
                ('I', 'ℐ'),
                ('L', 'ℒ'),
                ('M', 'ℳ'),
                ('R', 'ℛ'),
                ('e', 'ℯ'),
                ('g', 'ℊ'),
                ('o', 'ℴ'),
            ],
        ),
        "mathfrak" => (
            0x1D504,
            Some(0x1D51E),
            None,
            &[('C', 'ℭ'), ('H', 'ℌ'), ('I', 'ℑ'), ('R', 'ℜ'), ('Z', 'ℨ')],
        ),
        _ => return None,
    };
    if let Some(&(_, h)) = holes.iter().find(|(k, _)| *k == c) {
        return Some(h);
    }
    let code = match c {
        'A'..='Z' => upper + (c as u32 - 'A' as u32),
        'a'..='z' => lower? + (c as u32 - 'a' as u32),
        '0'..='9' => digit? + (c as u32 - '0' as u32),
        _ => return None,
    };
    char::from_u32(code)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn alphabets() {
        assert_eq!(alphabet("mathbb", 'R'), Some('ℝ'));
        assert_eq!(alphabet("mathbb", 'E'), Some('𝔼'));
        assert_eq!(alphabet("mathcal", 'L'), Some('ℒ'));
        assert_eq!(alphabet("mathcal", 'D'), Some('𝒟'));
        assert_eq!(alphabet("mathbb", '1'), Some('𝟙'));
    }

    #[test]
    fn scripts_need_every_character() {
        assert_eq!(script("2", true).as_deref(), Some("²"));
        assert_eq!(script("ij", false).as_deref(), Some("ᵢⱼ"));
        assert_eq!(script("g", false), None);
    }

    #[test]
    fn accents_compose() {
        assert_eq!(compose('o', '\u{0308}'), 'ö');
        assert_eq!(compose('c', '\u{0327}'), 'ç');
    }
}
