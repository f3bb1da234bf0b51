//! Element sizes and visibility from observers (ResizeObserver, IntersectionObserver), so that
//! nothing on an update path asks the layout engine (a `clientWidth` read after a DOM write
//! forces a synchronous layout) and nothing off screen is drawn.

use leptos::html::ElementType;
use leptos::prelude::*;
use std::rc::Rc;
use wasm_bindgen::prelude::*;
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
    watch_element(Box::new(move || target.get().map(|e| e.unchecked_into())), Rc::new(callback), Box::new(start), stop);
}

/// Starts observing an element with a callback, giving the observer (None if the browser refused).
type Start<O> = Box<dyn Fn(&js_sys::Function, &web_sys::Element) -> Option<O>>;

fn watch_element<O: Clone + 'static>(
    target: Box<dyn Fn() -> Option<web_sys::Element>>,
    callback: Rc<dyn Fn(js_sys::Array)>,
    start: Start<O>,
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
///
/// Called at the next animation frame, not from the observer's own callback: what a size
/// changes (rows of clock faces made for a width, a canvas' height) would otherwise change the
/// layout while the browser is still delivering sizes, and it reports "ResizeObserver loop
/// completed with undelivered notifications" to the window (error trackers record it).
pub fn observe_size<E>(target: NodeRef<E>, on_size: impl Fn(f64, f64) + 'static)
where
    E: ElementType,
    E::Output: JsCast + Clone + 'static,
{
    let on_size = StoredValue::new_local(on_size);
    // The newest size not yet handed on; a frame is asked for when the first one arrives.
    let pending = StoredValue::new(None::<(f64, f64)>);
    let callback = move |entries: js_sys::Array| {
        let Some(entry) = entries.iter().last().and_then(|e| e.dyn_into::<web_sys::ResizeObserverEntry>().ok()) else {
            return;
        };
        let size = entry.border_box_size().get(0).dyn_into::<web_sys::ResizeObserverSize>().ok();
        let (width, height) = match size {
            Some(size) => (size.inline_size(), size.block_size()),
            None => (entry.content_rect().width(), entry.content_rect().height()),
        };
        let Some(waiting) = pending.try_get_value() else { return };
        pending.set_value(Some((width, height)));
        if waiting.is_none() {
            request_animation_frame(move || {
                if let Some(Some((width, height))) = pending.try_get_value() {
                    pending.set_value(None);
                    let _ = on_size.try_with_value(|f| f(width, height));
                }
            });
        }
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
    // On paper the observer's next report would come too late: the size of the moment, at once.
    size_when_printing(Box::new(move || target.get_untracked().map(|e| e.unchecked_into())), size);
    size.read_only()
}

/// While the page prints, `size` is the element's size read at once (not generic: compiled once).
fn size_when_printing(target: Box<dyn Fn() -> Option<web_sys::Element>>, size: RwSignal<(f64, f64)>) {
    let printing = printing();
    Effect::new(move |_| {
        if !printing.get() {
            return;
        }
        if let Some(element) = target() {
            let rect = element.get_bounding_client_rect();
            if rect.width() > 0.0 && size.get_untracked() != (rect.width(), rect.height()) {
                size.set((rect.width(), rect.height()));
            }
        }
    });
}

/// `value` while `in_view` (and once at first); out of view, what it last was, without
/// computing it: a chart nobody sees keeps its DOM (and its description) until it comes back,
/// while the readable values beside it go on updating.
pub fn while_in_view<T>(in_view: impl Get<Value = bool> + Send + Sync + 'static, value: impl Fn() -> T + Send + Sync + 'static) -> Memo<T>
where
    T: Clone + PartialEq + Send + Sync + 'static,
{
    let printing = printing();
    Memo::new(move |shown: Option<&T>| match shown {
        Some(shown) if !in_view.get() && !printing.get() => shown.clone(),
        _ => value(),
    })
}

thread_local! {
    // Reference-counted, not owned by whatever component asked first: the page's life long (an
    // arena signal would go with the first asker's owner, as a test's mount does).
    static PRINTING: ArcRwSignal<bool> = {
        // Listening from the first asking, for the page's life.
        for (event, on) in [("beforeprint", true), ("afterprint", false)] {
            std::mem::forget(window_event_listener_untyped(event, move |_| print(on)));
        }
        ArcRwSignal::new(false)
    };
    static WORDS: ArcRwSignal<u32> = ArcRwSignal::new(0);
    /// The folded lists opened for paper, closed again after it.
    static OPENED: std::cell::RefCell<Vec<web_sys::HtmlDetailsElement>> = const { std::cell::RefCell::new(Vec::new()) };
}

/// True from `beforeprint` to `afterprint`: on paper every figure is drawn at once and what waits
/// for the reader is computed for the state of the moment (the canvases, the heatmap's cells and
/// the sizes below follow it). The folded lists are opened meanwhile, so that what they hold has
/// a size and prints.
pub fn printing() -> ArcRwSignal<bool> {
    PRINTING.with(Clone::clone)
}

/// Counts the page's changes of language: what a canvas draws in words follows it (the words
/// themselves come through [`crate::i18n::say`]).
pub fn words() -> ArcRwSignal<u32> {
    WORDS.with(Clone::clone)
}

fn print(on: bool) {
    if on {
        let Ok(closed) = document().query_selector_all("details:not([open])") else { return printing().set(true) };
        for node in (0..closed.length()).filter_map(|i| closed.item(i)) {
            if let Ok(details) = node.dyn_into::<web_sys::HtmlDetailsElement>() {
                details.set_open(true);
                OPENED.with_borrow_mut(|opened| opened.push(details));
            }
        }
    } else {
        for details in OPENED.with_borrow_mut(std::mem::take) {
            details.set_open(false);
        }
    }
    printing().set(on);
}

/// How near the screen counts as in view: 5% of its height above and below, so that what a
/// reader scrolls towards is ready as it shows. Wider costs every slider step: a chart or a text
/// changing just off screen is still laid out, painted and rasterized by the browser (with 15%,
/// a step of base cost 0.65 ms more on average over 30 scroll positions, 1 to 9 ms more where a
/// chart sat in the band).
const NEAR_SCREEN: &str = "5% 0px";

/// Parts that sit together and come into view together: a row of readouts; a row of clock
/// faces (its dials and its hands). A part asking [`use_in_view`] is answered for its group, so
/// that the observer has one target per group, not per part (each target costs the browser a
/// little on every frame, whatever moved).
const SEEN_TOGETHER: &str = ".readouts, .clock-row";

/// Whether the element (or the group it is part of, [`SEEN_TOGETHER`]) is on screen, or
/// [`NEAR_SCREEN`]; false until it first reports. Every element asking shares one
/// IntersectionObserver ([`Near`]): one observer with many targets costs the browser less per
/// frame than many.
pub fn use_in_view<E>(target: NodeRef<E>) -> ReadSignal<bool>
where
    E: ElementType,
    E::Output: JsCast + Clone + 'static,
{
    let visible = RwSignal::new(false);
    let watched = StoredValue::new_local(None::<web_sys::Element>);
    Effect::new(move |_| {
        let Some(element) = target.get() else { return };
        let element: web_sys::Element = element.unchecked_into();
        let element = element.closest(SEEN_TOGETHER).ok().flatten().unwrap_or(element);
        if let Some(previous) = watched.get_value() {
            Near::forget(&previous, visible);
        }
        Near::watch(&element, visible);
        watched.set_value(Some(element));
    });
    on_cleanup(move || {
        if let Some(previous) = watched.try_get_value().flatten() {
            Near::forget(&previous, visible);
        }
    });
    visible.read_only()
}

/// How near the screen a sleeping chapter wakes ([`crate::lab::Sleeper`]): half a screen above
/// and below, so that it has caught up before the reader scrolls it into view (its readable
/// texts and figures then follow [`NEAR_SCREEN`]).
const WAKE_MARGIN: &str = "50% 0px";

/// Calls `on_change` with whether `element` is within [`WAKE_MARGIN`] of the screen, each time
/// that changes (and once at first); the observer goes with the calling owner.
pub fn watch_wake(element: &web_sys::Element, on_change: impl Fn(bool) + 'static) {
    let callback = Closure::<dyn Fn(js_sys::Array)>::new(move |entries: js_sys::Array| {
        // The last entry is the latest.
        if let Some(entry) = entries.iter().filter_map(|e| e.dyn_into::<web_sys::IntersectionObserverEntry>().ok()).next_back() {
            on_change(entry.is_intersecting());
        }
    });
    let options = web_sys::IntersectionObserverInit::new();
    options.set_root_margin(WAKE_MARGIN);
    let Ok(observer) = web_sys::IntersectionObserver::new_with_options(callback.as_ref().unchecked_ref(), &options) else { return };
    // Called until the observer is disconnected: a few bytes per chapter, kept.
    callback.forget();
    observer.observe(element);
    let observer = StoredValue::new_local(observer);
    on_cleanup(move || {
        observer.try_with_value(web_sys::IntersectionObserver::disconnect);
    });
}

/// Calls `on_focus` when focus enters `element` or moves within it, before the focused
/// element's own handlers run (a capturing listener, kept as long as the element).
pub fn watch_focus(element: &web_sys::Element, on_focus: impl Fn() + 'static) {
    let callback = Closure::<dyn Fn()>::new(on_focus);
    let _ = element.add_event_listener_with_callback_and_bool("focusin", callback.as_ref().unchecked_ref(), true);
    // Called as long as the element lives: a few bytes per chapter, kept.
    callback.forget();
}

/// The one observer behind [`use_in_view`]: each watched element's flags, found from the element
/// through a JS `Map` (by identity); two asking about one element share what it reports. While
/// the page prints, every flag is true, so that what waits out of view is current on paper;
/// after printing, each element reports afresh.
struct Near {
    observer: web_sys::IntersectionObserver,
    /// Element -> its slot in `flags`.
    slots: js_sys::Map,
    /// Each slot: the flags of the element observed there (empty: a free slot).
    flags: Vec<Vec<RwSignal<bool>>>,
    free: Vec<usize>,
}

thread_local! {
    static NEAR: std::cell::RefCell<Option<Near>> = const { std::cell::RefCell::new(None) };
}

impl Near {
    fn start() -> Option<Near> {
        let callback = Closure::<dyn Fn(js_sys::Array)>::new(Near::report);
        let options = web_sys::IntersectionObserverInit::new();
        options.set_root_margin(NEAR_SCREEN);
        let observer = web_sys::IntersectionObserver::new_with_options(callback.as_ref().unchecked_ref(), &options).ok()?;
        // The observer and the print listeners live as long as the page.
        callback.forget();
        if let Some(window) = web_sys::window() {
            for (event, handler) in [("beforeprint", Near::printing as fn()), ("afterprint", Near::printed)] {
                let listener = Closure::<dyn Fn()>::new(handler);
                let _ = window.add_event_listener_with_callback(event, listener.as_ref().unchecked_ref());
                listener.forget();
            }
        }
        Some(Near { observer, slots: js_sys::Map::new(), flags: Vec::new(), free: Vec::new() })
    }

    fn watch(element: &web_sys::Element, flag: RwSignal<bool>) {
        let known = NEAR.with_borrow_mut(|near| {
            if near.is_none() {
                *near = Near::start();
            }
            let near = near.as_mut()?;
            if let Some(slot) = near.slots.get(element).as_f64() {
                // Already observed: the observer will not report it again, so the new flag
                // starts from what the others know.
                let flags = &mut near.flags[slot as usize];
                let known = flags.first().and_then(|f| f.try_get_untracked());
                flags.push(flag);
                return known;
            }
            let slot = near.free.pop().unwrap_or(near.flags.len());
            if slot == near.flags.len() {
                near.flags.push(Vec::new());
            }
            near.flags[slot] = vec![flag];
            near.slots.set(element, &JsValue::from(slot as u32));
            near.observer.observe(element);
            None
        });
        // Set once the observer's state is let go (as in `report`).
        if let Some(known) = known {
            flag.try_set(known);
        }
    }

    fn forget(element: &web_sys::Element, flag: RwSignal<bool>) {
        NEAR.with_borrow_mut(|near| {
            let Some(near) = near else { return };
            let Some(slot) = near.slots.get(element).as_f64().map(|s| s as usize) else { return };
            near.flags[slot].retain(|f| *f != flag);
            if near.flags[slot].is_empty() {
                near.observer.unobserve(element);
                near.slots.delete(element);
                near.free.push(slot);
            }
        });
    }

    /// The observer's entries, in order (an element's last entry wins). The flags are set after
    /// the observer's state is let go, since setting one may run code that watches another element.
    fn report(entries: js_sys::Array) {
        let seen: Vec<(RwSignal<bool>, bool)> = NEAR.with_borrow(|near| {
            let Some(near) = near else { return Vec::new() };
            entries
                .iter()
                .filter_map(|entry| entry.dyn_into::<web_sys::IntersectionObserverEntry>().ok())
                .flat_map(|entry| {
                    let flags = near.slots.get(&entry.target()).as_f64().and_then(|slot| near.flags.get(slot as usize));
                    flags.into_iter().flatten().map(move |flag| (*flag, entry.is_intersecting()))
                })
                .collect()
        });
        for (flag, near) in seen {
            if flag.try_get_untracked().is_some_and(|was| was != near) {
                flag.try_set(near);
            }
        }
    }

    fn printing() {
        let flags: Vec<RwSignal<bool>> = NEAR.with_borrow(|near| near.iter().flat_map(|n| n.flags.iter().flatten().copied()).collect());
        for flag in flags {
            if flag.try_get_untracked() == Some(false) {
                flag.try_set(true);
            }
        }
    }

    /// Each element reports again (an observer reports a newly observed element at once).
    fn printed() {
        NEAR.with_borrow(|near| {
            let Some(near) = near else { return };
            near.slots.for_each(&mut |_, element| {
                if let Ok(element) = element.dyn_into::<web_sys::Element>() {
                    near.observer.unobserve(&element);
                    near.observer.observe(&element);
                }
            });
        });
    }
}
