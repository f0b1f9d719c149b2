//! Converts a file between formats and prints the output and report (a minimal embedding example).
fn main() -> Result<(), Box<dyn std::error::Error>> {
    let args: Vec<String> = std::env::args().collect();
    let (Some(from), Some(to), Some(path)) = (args.get(1), args.get(2), args.get(3)) else {
        return Err("usage: convert_file FROM TO FILE".into());
    };
    let input = std::fs::read(path)?;
    let conversion = tooladapter::Registry::default().convert(&input, from, to)?;
    println!("{}", conversion.output_str());
    for entry in conversion.report() {
        eprintln!("{entry}");
    }
    Ok(())
}
