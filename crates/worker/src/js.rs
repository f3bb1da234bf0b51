//! The browser, called by name through `Reflect`: the few calls the worker makes.

use js_sys::{Array, Object, Promise, Reflect};
use rope_lab_core::model::protocol as p;
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;
use wasm_bindgen_futures::JsFuture;

pub(crate) fn scope() -> JsValue {
    js_sys::global().into()
}

/// Posts `{kind, id, ...fields}` to the page.
pub(crate) fn post(kind: &str, id: f64, fields: &[(&str, JsValue)]) {
    let message = Object::new();
    set(&message, p::KIND, &JsValue::from_str(kind));
    set(&message, p::ID, &JsValue::from_f64(id));
    for (key, value) in fields {
        set(&message, key, value);
    }
    call(&scope(), "postMessage", &[&message]);
}

/// A field of a message or of any object the browser hands over (undefined when absent).
pub(crate) fn get(target: &JsValue, key: &str) -> JsValue {
    Reflect::get(target, &JsValue::from_str(key)).unwrap_or(JsValue::UNDEFINED)
}

pub(crate) fn number(target: &JsValue, key: &str) -> f64 {
    get(target, key).as_f64().unwrap_or(0.0)
}

pub(crate) fn set(target: &JsValue, key: &str, value: &JsValue) {
    let _ = Reflect::set(target, &JsValue::from_str(key), value);
}

/// `target.method(args...)`, undefined when it is not a function or it throws.
pub(crate) fn call(target: &JsValue, method: &str, args: &[&JsValue]) -> JsValue {
    let Ok(function) = get(target, method).dyn_into::<js_sys::Function>() else { return JsValue::UNDEFINED };
    let args: Array = args.iter().map(|&a| a.clone()).collect();
    function.apply(target, &args).unwrap_or(JsValue::UNDEFINED)
}

/// `await promise`, or the error's text.
pub(crate) async fn wait(value: JsValue) -> Result<JsValue, String> {
    let promise = value.dyn_into::<Promise>().map_err(|_| "not a promise".to_string())?;
    JsFuture::from(promise).await.map_err(|e| e.as_string().or_else(|| get(&e, "message").as_string()).unwrap_or_else(|| "failed".into()))
}
