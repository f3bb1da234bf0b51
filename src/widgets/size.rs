//! Element sizes and visibility from observers (ResizeObserver, IntersectionObserver), so that
//! nothing on an update path asks the layout engine (a `clientWidth` read after a DOM write
//! forces a synchronous layout) and nothing off screen is drawn.

use leptos::html::ElementType;
use leptos::prelude::*;
use wasm_bindgen::prelude::*;
use std::rc::Rc;
use wasm_bindgen::JsCast;

/// An observer and the callback it calls, kept alive together while it watches.
type Watching<O> = (O, Closure<dyn Fn(js_sys::Array)>);

/// Once `target` is mounted, `start` makes an observer watching it with `callback` (called
/// with the observer's entries); the observer is disconnected (`stop`) when the target is
/// replaced or the owner is cleaned up. Only this thin layer is generic over the element type.
fn watch<E, O>(
    target: NodeRef<E>,
    callback: impl Fn(js_sys::Array) + 'static,
    start: impl Fn(&js_sys::Function, &web_sys::Element) -> Option<O> + 'static,
    stop: fn(&O),
) where
    E: ElementType,
    E::Output: JsCast + Clone + 'static,
    O: Clone + 'static,
{
    watch_element(
        Box::new(move || target.get().map(|e| e.unchecked_into())),
        Rc::new(callback),
        Box::new(start),
        stop,
    );
}

fn watch_element<O: Clone + 'static>(
    target: Box<dyn Fn() -> Option<web_sys::Element>>,
    callback: Rc<dyn Fn(js_sys::Array)>,
    start: Box<dyn Fn(&js_sys::Function, &web_sys::Element) -> Option<O>>,
    stop: fn(&O),
) {
    let watching = StoredValue::new_local(None::<Watching<O>>);
    let (target, start, callback) = (StoredValue::new_local(target), StoredValue::new_local(start), StoredValue::new_local(callback));
    let current = move || watching.try_with_value(|w| w.as_ref().map(|(o, _)| o.clone())).flatten();
    Effect::new(move |_| {
        let Some(element) = target.with_value(|target| target()) else { return };
        let callback = callback.get_value();
        let closure = Closure::<dyn Fn(js_sys::Array)>::new(move |entries| callback(entries));
        let observer = start.with_value(|start| start(closure.as_ref().unchecked_ref(), &element));
        if let Some(observer) = observer {
            if let Some(previous) = current() {
                stop(&previous);
            }
            watching.set_value(Some((observer, closure)));
        }
    });
    on_cleanup(move || {
        if let Some(observer) = current() {
            stop(&observer);
        }
    });
}

/// Calls `on_size(width, height)` with the element's border-box size in CSS pixels whenever it
/// changes, starting when it is mounted; stops when the owner is cleaned up.
pub fn observe_size<E>(target: NodeRef<E>, on_size: impl Fn(f64, f64) + 'static)
where
    E: ElementType,
    E::Output: JsCast + Clone + 'static,
{
    let on_size = StoredValue::new_local(on_size);
    let callback = move |entries: js_sys::Array| {
        let Some(entry) = entries.iter().last().and_then(|e| e.dyn_into::<web_sys::ResizeObserverEntry>().ok()) else {
            return;
        };
        let size = entry.border_box_size().get(0).dyn_into::<web_sys::ResizeObserverSize>().ok();
        let (width, height) = match size {
            Some(size) => (size.inline_size(), size.block_size()),
            None => (entry.content_rect().width(), entry.content_rect().height()),
        };
        let _ = on_size.try_with_value(|f| f(width, height));
    };
    watch(
        target,
        callback,
        |callback, element| {
            let observer = web_sys::ResizeObserver::new(callback).ok()?;
            observer.observe(element);
            Some(observer)
        },
        web_sys::ResizeObserver::disconnect,
    );
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

/// `value` while `in_view` (and once at first); out of view, what it last was, without
/// computing it: a chart nobody sees keeps its DOM (and its description) until it comes back,
/// while the readable values beside it go on updating.
pub fn while_in_view<T>(in_view: ReadSignal<bool>, value: impl Fn() -> T + Send + Sync + 'static) -> Memo<T>
where
    T: Clone + PartialEq + Send + Sync + 'static,
{
    Memo::new(move |shown: Option<&T>| match shown {
        Some(shown) if !in_view.get() => shown.clone(),
        _ => value(),
    })
}

/// How near the screen counts as in view: 15% of its height above and below, so that what a
/// reader scrolls towards is ready before it shows.
const NEAR_SCREEN: &str = "15% 0px";

/// Whether the element is on screen, or [`NEAR_SCREEN`], from an IntersectionObserver; false
/// until it first reports.
pub fn use_in_view<E>(target: NodeRef<E>) -> ReadSignal<bool>
where
    E: ElementType,
    E::Output: JsCast + Clone + 'static,
{
    let visible = RwSignal::new(false);
    let callback = move |entries: js_sys::Array| {
        if let Some(entry) = entries.iter().last().and_then(|e| e.dyn_into::<web_sys::IntersectionObserverEntry>().ok()) {
            if visible.try_get_untracked() != Some(entry.is_intersecting()) {
                visible.try_set(entry.is_intersecting());
            }
        }
    };
    watch(
        target,
        callback,
        move |callback, element| {
            let options = web_sys::IntersectionObserverInit::new();
            options.set_root_margin(NEAR_SCREEN);
            let observer = web_sys::IntersectionObserver::new_with_options(callback, &options).ok()?;
            observer.observe(element);
            Some(observer)
        },
        web_sys::IntersectionObserver::disconnect,
    );
    visible.read_only()
}
