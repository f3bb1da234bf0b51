//! Packs stories260K for the page: `cargo run --example pack_model -- <model dir> <out file>`.
//! Reads `stories260K.bin` and `tok512.bin` from the folder (llama2.c's files, never part of
//! the repository; the build step that calls this, `.ci/model.mjs`, has checked their sha256),
//! and writes the int8 form `rope_lab::model::pack` makes, read back once to be sure.

use rope_lab::model::{pack, Model, Rope, Weights};
use std::process::ExitCode;

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let [dir, out] = &args[..] else {
        eprintln!("usage: pack_model <folder with stories260K.bin and tok512.bin> <output file>");
        return ExitCode::from(2);
    };
    let read = |name: &str| std::fs::read(std::path::Path::new(dir).join(name)).map_err(|e| format!("{dir}/{name}: {e}"));
    let result = (|| -> Result<usize, String> {
        let checkpoint = read("stories260K.bin")?;
        let tokenizer = read("tok512.bin")?;
        let weights = Weights::from_llama2c(&checkpoint).map_err(|e| format!("stories260K.bin: {e}"))?;
        // Fails here, not in the page, if the tokenizer does not read.
        Model::from_llama2c(&checkpoint, &tokenizer).map_err(|e| format!("tok512.bin: {e}"))?;
        let packed = pack(&weights, &tokenizer);
        // The page reads it back exactly so.
        let model = Model::from_packed(&packed).map_err(|e| format!("packed: {e}"))?;
        let _ = model.loss(&[1], Rope::default());
        std::fs::write(out, &packed).map_err(|e| format!("{out}: {e}"))?;
        Ok(packed.len())
    })();
    match result {
        Ok(bytes) => {
            println!("model: packed stories260K into {out} ({bytes} bytes)");
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("model: {e}");
            ExitCode::FAILURE
        }
    }
}
