//! Lessons: a title and steps, each a view of the page (`?dim=8&m=3&n=1#clocks`) and a caption
//! that says its point. The built-in lesson ([`Lesson::intro`], `lesson=intro`) is the README's
//! 45-minute lesson; a teacher's own is a JSON file served beside the page
//! (`lesson=lessons/mine.json`), read here with errors that name the step and the field.
//! Pure Rust, so the format and its errors are tested natively.

use super::json::Json;
use crate::i18n::Lang;

/// A lesson: what it is called and its steps, in order (at least one).
#[derive(Debug, Clone, PartialEq)]
pub struct Lesson {
    pub title: String,
    pub steps: Vec<Step>,
}

/// One step: the view it opens and what it says.
#[derive(Debug, Clone, PartialEq)]
pub struct Step {
    /// A query and a chapter: `?dim=8&m=3&n=1#clocks`, `#order`, `?p=7`.
    pub view: String,
    /// The point of the step, shown beside its figure: in English (`"en"`), or else in the
    /// first language the file gives it in.
    pub caption: String,
    /// The caption in the page's other languages the file gives it in (issue 49): shown as it
    /// is when the page is in that language; in any other, [`Step::caption`] is.
    pub captions: Vec<(Lang, String)>,
}

impl Step {
    /// The view's query string, without `?` (empty when the view has none).
    pub fn query(&self) -> &str {
        let end = self.view.find('#').unwrap_or(self.view.len());
        self.view[..end].trim_start_matches('?')
    }

    /// The caption to show in `lang`, and its language when it is not English (the page shows it
    /// as written, marked with its language).
    pub fn caption_in(&self, lang: Lang) -> (&str, Option<Lang>) {
        match self.captions.iter().find(|(l, _)| *l == lang) {
            Some((l, text)) => (text, Some(*l)),
            // Without English, the caption is the file's first language, first among `captions`.
            None => (&self.caption, self.captions.first().filter(|(_, text)| *text == self.caption).map(|(l, _)| *l)),
        }
    }

    /// The chapter the view names (`clocks` of `…#clocks`), if any.
    pub fn chapter(&self) -> Option<&str> {
        self.view.split_once('#').map(|(_, id)| id).filter(|id| !id.is_empty())
    }
}

/// Where a lesson comes from: `lesson=intro`, or a file beside the page.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum LessonSource {
    Intro,
    /// A path relative to the page, ending in `.json`.
    File(String),
}

/// The longest lesson file read, in bytes (a lesson of a hundred steps is a few kilobytes).
pub const MAX_FILE_BYTES: usize = 256 * 1024;
/// The most steps a lesson may have.
pub const MAX_STEPS: usize = 200;
/// The longest caption kept, in characters.
const MAX_CAPTION: usize = 600;
/// The longest view kept, in characters.
const MAX_VIEW: usize = 2000;

impl LessonSource {
    /// Reads the `lesson` parameter: `intro`, or a same-origin path relative to the page that
    /// ends in `.json` (no scheme, no host, no leading `/`). Otherwise the reason, for a notice.
    pub fn parse(raw: &str) -> Result<LessonSource, String> {
        let raw = raw.trim();
        if raw == "intro" {
            return Ok(LessonSource::Intro);
        }
        // No scheme (`https:`, `javascript:`: no colon at all), no host (`//…`), no absolute
        // path: only a path beside the page, which is on the page's own site.
        let relative = !raw.starts_with('/');
        let plain = raw.chars().all(|c| c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '.' | '/' | '~' | '%'));
        if raw.ends_with(".json") && raw.len() > ".json".len() && relative && plain {
            Ok(LessonSource::File(raw.to_string()))
        } else {
            Err(format!(
                "lesson '{raw}' is neither 'intro' nor a path relative to this page ending in .json (such as lessons/mine.json); showing the page without a lesson"
            ))
        }
    }

    /// The parameter's text (`intro`, `lessons/mine.json`).
    pub fn text(&self) -> &str {
        match self {
            LessonSource::Intro => "intro",
            LessonSource::File(path) => path,
        }
    }
}

/// Reads `step` (1-based) for a lesson of `count` steps: the step's index (0-based), and a notice
/// when the text was not a step number there is (the nearest step is opened).
pub fn step_index(raw: Option<&str>, count: usize) -> (usize, Option<String>) {
    let Some(raw) = raw.map(str::trim) else { return (0, None) };
    let last = count.max(1);
    match raw.parse::<i64>() {
        Ok(k) if (1..=last as i64).contains(&k) => (k as usize - 1, None),
        Ok(k) => {
            let nearest = k.clamp(1, last as i64) as usize;
            (nearest - 1, Some(format!("step {k} is not a step of this lesson (1 to {last}); opened step {nearest}")))
        }
        Err(_) => (0, Some(format!("step '{raw}' is not a whole number; opened step 1"))),
    }
}

impl Lesson {
    /// Reads a lesson file: `{ "title": "...", "steps": [ { "view": "...", "caption": "..." } ] }`.
    /// The error says what is wrong and where (line and column, or which step and field).
    pub fn parse(text: &str) -> Result<Lesson, String> {
        if text.len() > MAX_FILE_BYTES {
            return Err(format!("the file is {} KB, more than the {} KB a lesson may have", text.len() / 1024, MAX_FILE_BYTES / 1024));
        }
        let json = Json::parse(text).map_err(|e| format!("the file is not JSON ({e})"))?;
        if !matches!(json, Json::Object(_)) {
            return Err(format!("the file holds {}, not an object with \"title\" and \"steps\"", json.kind()));
        }
        let title = match json.get("title") {
            Some(Json::String(title)) if !title.trim().is_empty() => title.trim().to_string(),
            Some(Json::String(_)) => return Err("\"title\" is empty".to_string()),
            Some(other) => return Err(format!("\"title\" is {}, not a string", other.kind())),
            None => return Err("\"title\" is missing".to_string()),
        };
        let steps = match json.get("steps") {
            Some(Json::Array(steps)) => steps,
            Some(other) => return Err(format!("\"steps\" is {}, not a list", other.kind())),
            None => return Err("\"steps\" is missing".to_string()),
        };
        if steps.is_empty() {
            return Err("\"steps\" is empty: a lesson needs at least one step".to_string());
        }
        if steps.len() > MAX_STEPS {
            return Err(format!("\"steps\" has {} steps, more than the {MAX_STEPS} a lesson may have", steps.len()));
        }
        let steps = steps.iter().enumerate().map(|(i, step)| read_step(i + 1, step)).collect::<Result<Vec<_>, _>>()?;
        Ok(Lesson { title, steps })
    }

    /// The lesson as a file [`Lesson::parse`] reads back.
    pub fn to_json(&self) -> String {
        let steps: Vec<String> =
            self.steps.iter().map(|s| format!("    {{ \"view\": {}, \"caption\": {} }}", json_string(&s.view), caption_json(s))).collect();
        format!("{{\n  \"title\": {},\n  \"steps\": [\n{}\n  ]\n}}\n", json_string(&self.title), steps.join(",\n"))
    }

    /// The README's 45-minute lesson, its fourteen views and three extensions. The views leave
    /// presenter mode and the theme to the person showing it (`lesson=intro&present=1`).
    pub fn intro() -> Lesson {
        let step = |view: &str, caption: &str| Step { view: view.to_string(), caption: caption.to_string(), captions: Vec::new() };
        Lesson {
            title: "RoPE in 45 minutes".to_string(),
            steps: vec![
                step("#order", "Without positions, attention is blind to order: the two \"dog\"s get identical outputs, and shuffling the words only shuffles the outputs."),
                step("?positions=rope#order", "Rotating q and k by position tells the two dogs apart."),
                step("?p=7#counting", "Integers grow without bound, binary jumps (7 → 8 flips four bits); sinusoids are smooth, bounded, and step evenly."),
                step("?p=100&shift=20#pe-rotation", "Moving a sinusoidal code by Δ is one fixed rotation per plane, whatever p: relative position is already a rotation."),
                step("?m=300&n=20#add-or-rotate", "Adding an encoding changes a vector's length and mixes content with position; rotating keeps the length."),
                step("?heatmap=sinusoidal#heatmap", "Sinusoids added to q and k: the score depends on m and n separately, so a diagonal (one distance n − m) changes colour along its length."),
                step("#heatmap", "With RoPE every diagonal of the score map is one colour: the score depends only on n − m."),
                step("?dim=8&m=3&n=1#clocks", "Each plane is a clock: q's hand turned by m·θᵢ, k's by n·θᵢ. The score reads the angles between them. Press ] to move both tokens on."),
                step("?dim=8&m=13&n=11#clocks", "Both tokens moved on by 10: every hand turned, the angle between the two hands on each clock did not, and the score is the same."),
                step("?dim=128&orig=4096#frequencies", "Fast planes turn every few tokens, slow ones never complete a turn within the context."),
                step("?dim=128&range=4096&r=1000#decay", "RoFormer's bound ripples and is loose; the score of a given q and k need not decay."),
                step("#model", "A real trained model reads a story in the tab: the dark squares are heads that look back at the previous token. Switch plane 0 off and watch their attention fall and the loss rise; shift every position by a million and nothing changes."),
                step("?layout=half&m=30&n=11#layouts", "Interleaved and rotate_half pair dimensions differently: the same function up to a permutation, a real bug if mixed up."),
                step("?preset=llama-3.1-8b&scaling_b=linear#scaling-compare", "Llama 3.1 keeps its fast planes, divides its slow ones by 8 and blends those between. At 128K = 16 × its 8K, the divided planes still turn 2× as far as in training: its 128K also comes from long-context continued pre-training (Llama 3 paper, §3.4.2). Method B is plain interpolation."),
                step("#rope2d", "Images: click two patches, shift both, and find the patch the (x + y) way cannot tell apart."),
                step("?m=15962#precision", "bf16 stores position 15,962 as 15,936; press \"m = 65,520\" with fp16 for infinity."),
                step("?model=smollm2-135m#model", "A current model: SmolLM2-135M, 32 planes per head. Load it once (98 MB; it stays for offline use). The grid colours its 270 heads by their attention to the previous token. Press \"fastest 8 off\": those heads stop looking back and the loss jumps; \"slowest 16 off\" hardly moves it (p-RoPE)."),
            ],
        }
    }
}

/// Step `number` (1-based) of a lesson file.
fn read_step(number: usize, step: &Json) -> Result<Step, String> {
    if !matches!(step, Json::Object(_)) {
        return Err(format!("step {number} is {}, not an object with \"view\" and \"caption\"", step.kind()));
    }
    let text = |field: &str, longest: usize| -> Result<String, String> {
        match step.get(field) {
            Some(Json::String(value)) if value.chars().count() > longest => {
                Err(format!("step {number}: \"{field}\" is longer than {longest} characters"))
            }
            Some(Json::String(value)) => Ok(value.trim().to_string()),
            Some(other) => Err(format!("step {number}: \"{field}\" is {}, not a string", other.kind())),
            None => Err(format!("step {number}: \"{field}\" is missing")),
        }
    };
    let view = text("view", MAX_VIEW)?;
    if !(view.starts_with('?') || view.starts_with('#')) {
        return Err(format!("step {number}: \"view\" must start with ? or # (such as \"?dim=8&m=3#clocks\"), not '{view}'"));
    }
    // A caption is a string, or an object of captions by language: {"en": "…", "es": "…"}.
    let (caption, captions) = match step.get("caption") {
        Some(Json::Object(by_language)) => {
            let mut captions = Vec::new();
            for (tag, text) in by_language {
                let Some(lang) = Lang::parse(tag) else {
                    return Err(format!(
                        "step {number}: \"caption\" has a language the page does not speak, '{tag}' (en, zh-CN, es or ja)"
                    ));
                };
                match text {
                    Json::String(text) if text.chars().count() > MAX_CAPTION => {
                        return Err(format!("step {number}: \"caption\" in {tag} is longer than {MAX_CAPTION} characters"));
                    }
                    Json::String(text) if !text.trim().is_empty() => captions.push((lang, text.trim().to_string())),
                    Json::String(_) => return Err(format!("step {number}: \"caption\" in {tag} is empty")),
                    other => return Err(format!("step {number}: \"caption\" in {tag} is {}, not a string", other.kind())),
                }
            }
            // English first if given, else the first language: what every other language shows.
            let first = captions.iter().position(|(l, _)| *l == Lang::En).unwrap_or(0);
            if captions.is_empty() {
                return Err(format!("step {number}: \"caption\" gives no language"));
            }
            let (lang, caption) = captions.remove(first);
            if lang != Lang::En {
                captions.insert(0, (lang, caption.clone()));
            }
            (caption, captions)
        }
        _ => (text("caption", MAX_CAPTION)?, Vec::new()),
    };
    if caption.is_empty() {
        return Err(format!("step {number}: \"caption\" is empty"));
    }
    Ok(Step { view, caption, captions })
}

/// A step's caption as its file writes it: a string, or an object by language.
fn caption_json(step: &Step) -> String {
    if step.captions.is_empty() {
        return json_string(&step.caption);
    }
    let mut all: Vec<(Lang, &str)> = step.captions.iter().map(|(l, t)| (*l, t.as_str())).collect();
    if !all.iter().any(|(l, t)| *t == step.caption && *l != Lang::En) {
        all.insert(0, (Lang::En, &step.caption));
    }
    let fields: Vec<String> = all.iter().map(|(l, t)| format!("{}: {}", json_string(l.as_str()), json_string(t))).collect();
    format!("{{ {} }}", fields.join(", "))
}

/// `text` as a JSON string, quoted and escaped.
fn json_string(text: &str) -> String {
    let mut out = String::with_capacity(text.len() + 2);
    out.push('"');
    for c in text.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            c if (c as u32) < 0x20 => out.push_str(&format!("\\u{:04x}", c as u32)),
            c => out.push(c),
        }
    }
    out.push('"');
    out
}
