//! Calling the browser by name, through `Reflect` and the functions the page already imports:
//! each web-sys method bound anew adds its glue to the script every first visit downloads (the
//! glue of every part is in the page's frame), these do not. For code fetched on demand (a
//! figure's PNG, lessons) that calls a method or two the rest of the page never does.

use js_sys::{Function, Reflect};
use wasm_bindgen::{JsCast, JsValue};

/// `target[key]`, undefined if it cannot be read.
pub fn get(target: &JsValue, key: &str) -> JsValue {
    Reflect::get(target, &JsValue::from_str(key)).unwrap_or(JsValue::UNDEFINED)
}

/// `target[key]` as a number, 0 if it is not one.
pub fn number(target: &JsValue, key: &str) -> f64 {
    get(target, key).as_f64().unwrap_or(0.0)
}

/// `target[key] = value`.
pub fn set(target: &JsValue, key: &str, value: &JsValue) {
    let _ = Reflect::set(target, &JsValue::from_str(key), value);
}

/// `target.method(args…)` (up to two), undefined if there is no such method or it throws.
pub fn call(target: &JsValue, method: &str, args: &[&JsValue]) -> JsValue {
    let Ok(function) = get(target, method).dyn_into::<Function>() else { return JsValue::UNDEFINED };
    let undefined = JsValue::UNDEFINED;
    let arg = |i: usize| args.get(i).copied().unwrap_or(&undefined);
    let result = if args.len() > 1 { function.call2(target, arg(0), arg(1)) } else { function.call1(target, arg(0)) };
    result.unwrap_or(JsValue::UNDEFINED)
}
