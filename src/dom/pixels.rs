//! A small picture drawn pixel by pixel (one pixel per cell) and scaled up by CSS with sharp
//! edges: position × dimension pictures of the counting chapter. One `putImageData` per change,
//! and nothing while out of view.

use crate::dom::canvas::context_2d;
use crate::dom::size::use_in_view;
use leptos::html::Canvas;
use leptos::prelude::*;
use wasm_bindgen::Clamped;

/// RGBA pixels of a `width` × `height` picture.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Pixels {
    pub width: usize,
    pub height: usize,
    pub rgba: Vec<u8>,
}

#[component]
pub fn PixelPicture(
    #[prop(into)] pixels: Signal<Pixels>,
    /// What the picture shows, for screen readers.
    #[prop(into)]
    label: Signal<String>,
) -> impl IntoView {
    let canvas = NodeRef::<Canvas>::new();
    let in_view = use_in_view(canvas);
    Effect::new(move |_| {
        if !in_view.get() {
            return;
        }
        let Some(element) = canvas.get() else { return };
        pixels.with(|p| {
            if p.width == 0 || p.height == 0 || p.rgba.len() != p.width * p.height * 4 {
                return;
            }
            element.set_width(p.width as u32);
            element.set_height(p.height as u32);
            if let (Some(context), Ok(image)) = (
                context_2d(&element),
                web_sys::ImageData::new_with_u8_clamped_array_and_sh(Clamped(&p.rgba), p.width as u32, p.height as u32),
            ) {
                let _ = context.put_image_data(&image, 0.0, 0.0);
            }
        });
    });
    view! { <canvas class="pixel-picture" node_ref=canvas role="img" aria-label=move || label.get()></canvas> }
}
