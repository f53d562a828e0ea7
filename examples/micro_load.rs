fn main() {
    println!(
        "Paper {} Record {} PaperId {}",
        std::mem::size_of::<paperboat::corpus::Paper>(),
        std::mem::size_of::<paperboat::corpus::Record>(),
        std::mem::size_of::<paperboat::corpus::PaperId>()
    );
}
