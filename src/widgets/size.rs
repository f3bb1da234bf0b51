//! Element sizes from a ResizeObserver, so that nothing on an update path asks the layout
//! engine for a size (a `clientWidth` read after a DOM write forces a synchronous layout).

use leptos::html::ElementType;
use leptos::prelude::*;
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;

/// Calls `on_size(width, height)` with the element's border-box size in CSS pixels whenever it
/// changes, starting when it is mounted; stops when the owner is cleaned up.
pub fn observe_size<E>(target: NodeRef<E>, on_size: impl Fn(f64, f64) + 'static)
where
    E: ElementType,
    E::Output: JsCast + Clone + 'static,
{
    let on_size = StoredValue::new_local(on_size);
    let observer = StoredValue::new_local(None::<(web_sys::ResizeObserver, Closure<dyn Fn(js_sys::Array)>)>);
    Effect::new(move |_| {
        let Some(element) = target.get() else { return };
        let element: web_sys::Element = element.unchecked_into();
        let callback = Closure::<dyn Fn(js_sys::Array)>::new(move |entries: js_sys::Array| {
            let Some(entry) = entries.iter().last().and_then(|e| e.dyn_into::<web_sys::ResizeObserverEntry>().ok()) else {
                return;
            };
            let size = entry.border_box_size().get(0).dyn_into::<web_sys::ResizeObserverSize>().ok();
            let (width, height) = match size {
                Some(size) => (size.inline_size(), size.block_size()),
                None => (entry.content_rect().width(), entry.content_rect().height()),
            };
            let _ = on_size.try_with_value(|f| f(width, height));
        });
        if let Ok(resize) = web_sys::ResizeObserver::new(callback.as_ref().unchecked_ref()) {
            resize.observe(&element);
            if let Some(Some(previous)) = observer.try_with_value(|o| o.as_ref().map(|(r, _)| r.clone())) {
                previous.disconnect();
            }
            observer.set_value(Some((resize, callback)));
        }
    });
    on_cleanup(move || {
        if let Some(Some(resize)) = observer.try_with_value(|o| o.as_ref().map(|(r, _)| r.clone())) {
            resize.disconnect();
        }
    });
}

/// The element's border-box size in CSS pixels, (0, 0) until it is laid out.
pub fn use_element_size<E>(target: NodeRef<E>) -> ReadSignal<(f64, f64)>
where
    E: ElementType,
    E::Output: JsCast + Clone + 'static,
{
    let size = RwSignal::new((0.0, 0.0));
    observe_size(target, move |width, height| {
        if size.try_get_untracked() != Some((width, height)) {
            size.try_set((width, height));
        }
    });
    size.read_only()
}

/// Whether the element is on screen, or within `margin` (CSS, e.g. "200px") of it, from an
/// IntersectionObserver; false until it first reports.
pub fn use_in_view<E>(target: NodeRef<E>, margin: &'static str) -> ReadSignal<bool>
where
    E: ElementType,
    E::Output: JsCast + Clone + 'static,
{
    let visible = RwSignal::new(false);
    let observer = StoredValue::new_local(None::<(web_sys::IntersectionObserver, Closure<dyn Fn(js_sys::Array)>)>);
    Effect::new(move |_| {
        let Some(element) = target.get() else { return };
        let element: web_sys::Element = element.unchecked_into();
        let callback = Closure::<dyn Fn(js_sys::Array)>::new(move |entries: js_sys::Array| {
            if let Some(entry) = entries.iter().last().and_then(|e| e.dyn_into::<web_sys::IntersectionObserverEntry>().ok()) {
                if visible.try_get_untracked() != Some(entry.is_intersecting()) {
                    visible.try_set(entry.is_intersecting());
                }
            }
        });
        let options = web_sys::IntersectionObserverInit::new();
        options.set_root_margin(margin);
        if let Ok(watch) = web_sys::IntersectionObserver::new_with_options(callback.as_ref().unchecked_ref(), &options) {
            watch.observe(&element);
            if let Some(Some(previous)) = observer.try_with_value(|o| o.as_ref().map(|(w, _)| w.clone())) {
                previous.disconnect();
            }
            observer.set_value(Some((watch, callback)));
        }
    });
    on_cleanup(move || {
        if let Some(Some(watch)) = observer.try_with_value(|o| o.as_ref().map(|(w, _)| w.clone())) {
            watch.disconnect();
        }
    });
    visible.read_only()
}
