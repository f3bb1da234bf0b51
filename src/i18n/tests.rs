use super::*;

/// A catalogue as the build ships it: by key, ascending.
fn shipped(pairs: &[(&str, &str)]) -> String {
    let mut lines: Vec<(u32, &str)> = pairs.iter().map(|(en, tr)| (key(en), *tr)).collect();
    lines.sort();
    lines.iter().map(|(k, tr)| format!("{k:08x}\t{tr}\n")).collect()
}

#[test]
fn tags_round_trip_and_parse_in_any_case() {
    for lang in Lang::ALL {
        assert_eq!(Lang::parse(lang.as_str()), Some(lang));
        assert_eq!(Lang::parse(&lang.as_str().to_ascii_uppercase()), Some(lang));
    }
    assert_eq!(Lang::parse("fr"), None);
    assert_eq!(Lang::parse(""), None);
    assert_eq!(Lang::parse("zh"), None, "the contract's tag is zh-CN");
}

#[test]
fn the_browser_preference_picks_the_first_language_the_page_speaks() {
    assert_eq!(Lang::preferred(["fr-FR", "es-MX", "en"]), Lang::Es);
    assert_eq!(Lang::preferred(["ja-JP"]), Lang::Ja);
    assert_eq!(Lang::preferred(["zh-Hans-CN"]), Lang::ZhCn);
    assert_eq!(Lang::preferred(["zh"]), Lang::ZhCn);
    // Traditional Chinese is not simplified Chinese: the next preference, else English.
    assert_eq!(Lang::preferred(["zh-TW", "ja"]), Lang::Ja);
    assert_eq!(Lang::preferred(["zh-Hant"]), Lang::En);
    assert_eq!(Lang::preferred(["en-GB", "es"]), Lang::En);
    assert_eq!(Lang::preferred(["de", "fr"]), Lang::En);
    assert_eq!(Lang::preferred(Vec::<String>::new()), Lang::En);
}

#[test]
fn the_key_is_fnv_1a_of_the_utf8_bytes() {
    // FNV-1a's published test vectors (32 bits).
    assert_eq!(key(""), 0x811c_9dc5);
    assert_eq!(key("a"), 0xe40c_292c);
    assert_eq!(key("foobar"), 0xbf9c_f968);
    assert_ne!(key("Chapters"), key("chapters"));
}

#[test]
fn a_catalogue_translates_what_it_has_and_leaves_the_rest_english() {
    let shipped =
        shipped(&[("Chapters", "Capítulos"), ("{0} planes, each a pair of dimensions", "{0} planos, cada uno un par de dimensiones")]);
    assert_eq!(install(Lang::Es, &shipped), Ok(2));
    assert_eq!(current(), Lang::Es);
    assert_eq!(translate("Chapters").as_deref(), Some("Capítulos"));
    // Spaces around a text are kept; its numbers are written the Spanish way.
    assert_eq!(translate("  1,024 planes, each a pair of dimensions ").as_deref(), Some("  1.024 planos, cada uno un par de dimensiones "));
    assert_eq!(translate("Not in the catalogue"), None);
    // Texts without a word are not looked up.
    assert_eq!(translate("  12.5 "), None);
    assert_eq!(install(Lang::En, ""), Ok(0));
    assert_eq!(current(), Lang::En);
    assert_eq!(translate("Chapters"), None);
}

#[test]
fn numbers_become_places_and_words_keep_their_digits() {
    let t = |text| normalize(text);
    assert_eq!(t("64 planes"), ("{0} planes".to_string(), vec!["64"]));
    assert_eq!(t("plane 3 of 64, at −1.5e-3"), ("plane {0} of {1}, at {2}".to_string(), vec!["3", "64", "−1.5e-3"]));
    assert_eq!(t("1,234,567.25 tokens"), ("{0} tokens".to_string(), vec!["1,234,567.25"]));
    // The page's own exponents, with a minus sign.
    assert_eq!(t("θ₃₁ = 1.33e−3 rad"), ("θ₃₁ = {0} rad".to_string(), vec!["1.33e−3"]));
    assert_eq!(t("e−3 alone, 2e−x"), ("e−{0} alone, 2e−x".to_string(), vec!["3"]));
    // Digits glued to a word are part of it; a formula's exponent stays.
    assert_eq!(t("f32, bf16 and θᵢ = b^(−2i/d)").1, Vec::<&str>::new());
    assert_eq!(t("Llama 3.1 (2024)"), ("Llama {0} ({1})".to_string(), vec!["3.1", "2024"]));
    assert_eq!(t("b^(−2i/64) over the 64 dimensions"), ("b^(−2i/{0}) over the {1} dimensions".to_string(), vec!["64", "64"]));
    // A comma that does not group thousands is punctuation.
    assert_eq!(t("1, 2 and 3,5"), ("{0}, {1} and {2},{3}".to_string(), vec!["1", "2", "3", "5"]));
    assert_eq!(t("no numbers"), ("no numbers".to_string(), vec![]));
}

#[test]
fn values_go_where_the_translation_puts_them() {
    let values = ["3".to_string(), "64".to_string()];
    let raw = ["3", "64"];
    assert_eq!(fill("{1} 个平面中的第 {0} 个", &values, &raw), "64 个平面中的第 3 个");
    // A brace that names no value stays, and so does a lone one.
    assert_eq!(fill("{0} and {b", &values, &raw), "3 and {b");
    assert_eq!(fill("{x} {2} {1} {=5}", &values, &raw), "{x} {2} 64 {=5}");
    // `{=i}`: the number as English wrote it (part of a name).
    install(Lang::Es, &shipped(&[("Llama {0} at {1} tokens", "Llama {=0} con {1} tokens")])).unwrap();
    assert_eq!(translate("Llama 3.1 at 1,024.5 tokens").as_deref(), Some("Llama 3.1 con 1.024,5 tokens"));
    install(Lang::En, "").unwrap();
}

#[test]
fn a_broken_catalogue_is_refused_and_the_language_stays() {
    assert_eq!(install(Lang::Ja, "zz\tnot hex\n"), Err(CatalogueError { line: 1 }));
    assert_eq!(install(Lang::Ja, &format!("{:08x}\tok\nno tab here\n", key("x"))), Err(CatalogueError { line: 2 }));
    // Out of order (or twice): the build writes them ascending.
    assert_eq!(install(Lang::Ja, "00000002\tb\n00000001\ta\n"), Err(CatalogueError { line: 2 }));
    assert_eq!(install(Lang::Ja, "00000001\ta\n00000001\ta\n"), Err(CatalogueError { line: 2 }));
    assert_eq!(current(), Lang::En);
}

#[test]
fn numbers_take_the_spanish_separators_only_in_spanish() {
    install(Lang::Es, "").unwrap();
    assert_eq!(number("1,234.5".into()), "1.234,5");
    assert_eq!(number("−0.25".into()), "−0,25");
    assert_eq!(number("42".into()), "42");
    install(Lang::Ja, "").unwrap();
    assert_eq!(number("1,234.5".into()), "1,234.5");
    install(Lang::En, "").unwrap();
}

#[test]
fn a_caption_is_translated_whole_or_by_its_parts() {
    let shipped = shipped(&[
        ("Each plane's share of the score q_m · k_n", "各平面对分数 q_m · k_n 的贡献"),
        ("trained on {0} tokens", "训练长度 {0} 个词元"),
        ("Chapters", "章节"),
    ]);
    assert_eq!(install(Lang::ZhCn, &shipped), Ok(3));
    let mut missed = Vec::new();
    // The brand stays, each part the catalogue has is translated, the rest as written; joined
    // with the Chinese comma.
    let caption = translate_caption(
        "RoPE Lab · Each plane's share of the score q_m · k_n, trained on 4,096 tokens, m = 5, b = 10,000",
        &mut |part| missed.push(part.to_string()),
    );
    assert_eq!(caption.as_deref(), Some("RoPE Lab · 各平面对分数 q_m · k_n 的贡献，训练长度 4,096 个词元，m = 5，b = 10,000"));
    assert_eq!(missed, ["m = 5", "b = 10,000"]);
    // A text the catalogue has whole is translated whole.
    assert_eq!(translate_caption("Chapters", &mut |_| panic!("nothing missed")).as_deref(), Some("章节"));
    // Nothing known, nothing changed.
    missed.clear();
    assert_eq!(translate_caption("RoPE Lab · unknown words", &mut |part| missed.push(part.to_string())), None);
    assert_eq!(missed, ["unknown words"]);
    // Spanish writes the numbers of the parts it leaves as they are its own way.
    let spanish = super::tests::shipped(&[("trained on {0} tokens", "entrenado con {0} tokens")]);
    assert_eq!(install(Lang::Es, &spanish), Ok(1));
    assert_eq!(
        translate_caption("RoPE Lab · trained on 4,096 tokens, b = 10,000, ratio 1.5", &mut |_| ()).as_deref(),
        Some("RoPE Lab · entrenado con 4.096 tokens, b = 10.000, ratio 1,5")
    );
    assert_eq!(install(Lang::En, ""), Ok(0));
}
