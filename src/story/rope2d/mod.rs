//! Chapter (`data-widget="rope2d"`): RoPE for images. A small picture cut into 8 × 8 patches;
//! pick a query patch and a key patch (click, tap, or arrows and Enter), and see the score of q
//! with k under axial 2D RoPE (the first ⌈d/4⌉ planes turn with the column x, the rest with the
//! row y: none at d = 2),
//! and as two maps over the grid the score of the query with every key patch: axial, and the
//! wrong way that turns every plane by (x + y)·θᵢ, whose anti-diagonals collide.

mod picker;

use crate::charts::diverging;
use crate::dom::size::use_in_view;
use crate::lab::use_lab;
use crate::quiz::variants::shift_2d;
use crate::rope::{collision_partner, Patch, Rope2d, RopeParams, Trend};
use crate::state::{shifted_patches, Change, PatchCoordinate};
use crate::ui::card::WidgetCard;
use crate::ui::check::{Check, Question};
use crate::ui::export::{base_and_dim, ExportButtons};
use crate::ui::readout::Readout;
use leptos::html::Div;
use leptos::prelude::*;
use picker::{PatchPicker, Role, GRID};
use std::sync::Arc;

/// The chapter's id (`embed=rope2d`, `data-widget`): never changes meaning once published.
pub const ID: &str = "rope2d";
/// Its title, the heading of its card and its line in the table of contents.
pub const TITLE: &str = "Beyond one dimension: RoPE for images";

/// The scores of the current patches, and of the key's collision partner.
#[derive(Debug, Clone, PartialEq)]
struct Scores {
    axial: f64,
    mixed: f64,
    /// The partner patch, its axial and its mixed score.
    partner: Option<(Patch, f64, f64)>,
}

/// The two maps over the grid (row by row) and their shared colour limit.
#[derive(Debug, Clone, PartialEq)]
struct Maps {
    axial: Vec<f64>,
    mixed: Vec<f64>,
    limit: f64,
}

impl Maps {
    fn values(&self, axial: bool) -> &[f64] {
        if axial {
            &self.axial
        } else {
            &self.mixed
        }
    }
}

fn patch((x, y): (u8, u8)) -> Patch {
    (x as i64, y as i64)
}

fn signed(v: i64) -> String {
    if v > 0 {
        format!("+{v}")
    } else if v < 0 {
        format!("−{}", -v)
    } else {
        "0".to_string()
    }
}

#[component]
pub fn Rope2dWidget() -> impl IntoView {
    let lab = use_lab();
    let patches = lab.select(|s| (s.query_patch, s.key_patch));
    // Built when b or d move, not on every change of the state (m and n move on every frame).
    let shape = lab.select(|s| (s.base, s.dim));
    let rope = Memo::new(move |_| {
        let (base, dim) = shape.get();
        RopeParams::new(base, dim).ok().map(Rope2d::new)
    });
    let vectors = lab.vectors;
    let role = RwSignal::new(Role::Key);
    let maps_box = NodeRef::<Div>::new();
    let in_view = use_in_view(maps_box);

    // The readable values follow every change at once; the maps only while in view.
    let scores = Memo::new(move |_| {
        let (qp, kp) = patches.get();
        rope.with(|rope| {
            vectors.with(|v| {
                let (rope, v) = (rope.as_ref()?, v.as_ref()?);
                let axial = |kp: Patch| rope.score(&v.q, &v.k, patch(qp), kp).ok();
                let mixed = |kp: Patch| rope.mixed_score(&v.q, &v.k, patch(qp), kp).ok();
                let partner = collision_partner(patch(kp), GRID as i64).and_then(|p| Some((p, axial(p)?, mixed(p)?)));
                Some(Scores { axial: axial(patch(kp))?, mixed: mixed(patch(kp))?, partner })
            })
        })
    });
    let maps = Memo::new(move |previous: Option<&Option<Maps>>| {
        if !in_view.get() {
            return previous.cloned().flatten();
        }
        let qp = patch(patches.get().0);
        rope.with(|rope| {
            vectors.with(|v| {
                let (rope, v) = (rope.as_ref()?, v.as_ref()?);
                let axial = rope.score_grid(&v.q, &v.k, qp, GRID).ok()?;
                let mixed = rope.mixed_score_grid(&v.q, &v.k, qp, GRID).ok()?;
                let limit = axial.iter().chain(&mixed).fold(0.0_f64, |m, s| m.max(s.abs()));
                Some(Maps { axial, mixed, limit: if limit > 0.0 { limit } else { 1.0 } })
            })
        })
    });
    let split = Memo::new(move |_| rope.with(|r| r.as_ref().map_or((0, 0), Rope2d::split)));

    let pick = move |x: u8, y: u8| {
        let changes = match role.get_untracked() {
            Role::Query => [(PatchCoordinate::Qx, x), (PatchCoordinate::Qy, y)],
            Role::Key => [(PatchCoordinate::Kx, x), (PatchCoordinate::Ky, y)],
        };
        lab.edit(|s| changes.into_iter().flat_map(|(c, v)| s.apply(Change::Patch(c, v as i64))).collect::<Vec<_>>());
    };
    let offset = move || {
        let ((qx, qy), (kx, ky)) = patches.get();
        (kx as i64 - qx as i64, ky as i64 - qy as i64)
    };
    let where_text = move || {
        let ((qx, qy), (kx, ky)) = patches.get();
        let (dx, dy) = offset();
        format!("q at column {qx}, row {qy}; k at column {kx}, row {ky}: offset ({}, {})", signed(dx), signed(dy))
    };

    view! {
        <WidgetCard id=ID title=TITLE explain="An image transformer cuts a picture into patches and reads them as tokens. \
            A patch has two coordinates, its column x and its row y, and attention should see how far apart two \
            patches are in each direction. Axial 2D RoPE does it with the 1D machinery twice: it shares the planes \
            out between the axes, some turning by x·θₐ, the others by y·θₐ, each axis with its own ladder \
            θₐ = b^(−a/A), a = 0 … A − 1, over its A planes (how many each axis gets at this d is said under the maps). \
            Pick a query patch and a key patch.">
            <div class="chapter-controls patch-controls">
                <div class="patch-role" role="radiogroup" aria-labelledby="patch-role-label">
                    <span id="patch-role-label" class="control-label">"a click picks"</span>
                    <label><input type="radio" name="patch-role" prop:checked=move || role.get() == Role::Query
                        on:change=move |_| role.set(Role::Query) />" query patch"</label>
                    <label><input type="radio" name="patch-role" prop:checked=move || role.get() == Role::Key
                        on:change=move |_| role.set(Role::Key) />" key patch"</label>
                </div>
                <div class="shift-both" role="group" aria-label="shift both patches">
                    <span class="control-label" aria-hidden="true">"shift both"</span>
                    {[("←", "left", -1, 0), ("↑", "up", 0, -1), ("↓", "down", 0, 1), ("→", "right", 1, 0)].into_iter().map(|(arrow, name, dx, dy)| {
                        let blocked = move || shifted_patches(patches.get(), dx, dy).is_none();
                        view! {
                            <button type="button" class="shift-button" aria-label=format!("shift both patches {name}")
                                disabled=blocked on:click=move |_| { lab.edit(|s| { s.shift_patches(dx, dy); }); }>{arrow}</button>
                        }
                    }).collect_view()}
                </div>
            </div>
            <p class="patch-where" aria-live="polite">{where_text}</p>
            <div class="patch-figures">
                <figure class="patch-figure">
                    <PatchPicker patches role pick />
                    <figcaption>"The picture, 8 × 8 patches. Arrows move between patches; Enter picks."</figcaption>
                </figure>
                <div class="patch-maps" node_ref=maps_box>
                    <ScoreMap maps patches axial=true />
                    <ScoreMap maps patches axial=false />
                    <p class="map-key">"Score of q with a key at each patch: purple negative, white 0, green positive (one scale for both maps)."</p>
                </div>
            </div>
            <ExportButtons name="rope2d" figure=".patch-figures"
                caption=Callback::new(move |()| lab.state.with_untracked(|s| format!(
                    "Axial 2D RoPE on 8 × 8 patches: the score of q with a key at each patch, q at column {}, row {}, {}",
                    s.query_patch.0, s.query_patch.1, base_and_dim(s.base, s.dim)))) />
            <div class="readouts">
                <Readout testid="rope2d-score" label="axial 2D RoPE: score of q with k"
                    value=Signal::derive(move || scores.with(|s| s.as_ref().map(|s| s.axial)))
                    hint="unchanged when both patches shift together" />
                <Readout testid="rope2d-mixed-score" label="the wrong way, (x + y)·θᵢ: the same patches"
                    value=Signal::derive(move || scores.with(|s| s.as_ref().map(|s| s.mixed)))
                    hint="also relative, but blind to the direction" />
                <Readout testid="rope2d-partner-score" label="axial, at k′ (same x + y as k)"
                    value=Signal::derive(move || scores.with(|s| s.as_ref().and_then(|s| s.partner).map(|p| p.1)))
                    hint=move || {
                        let scores = scores.get();
                        // Axial sees the offset: k′'s differs, and so does its score unless q and k hide it.
                        let same = scores.as_ref().and_then(|s| s.partner.map(|p| Trend::of(s.axial, p.1) == Trend::Stays)).unwrap_or(false);
                        partner_hint(scores, if same { "a different offset, though these q and k score it the same" } else { "a different offset, a different score" })
                    } />
                <Readout testid="rope2d-partner-mixed-score" label="the wrong way, at k′"
                    value=Signal::derive(move || scores.with(|s| s.as_ref().and_then(|s| s.partner).map(|p| p.2)))
                    hint=move || partner_hint(scores.get(), "the same score as at k: a collision") />
            </div>
            <p class="explain">
                {move || split_text(split.get())}
                "Each plane's turn depends on one coordinate's difference, so the score depends only on the offset "
                "(kx − qx, ky − qy): shift both patches and it stays put, to the last digit. The wrong way spends "
                "every plane on x + y: still a function of the offset, but of one number where there are two, so a "
                "key one column right of the query and one a row below score the same, and so does every patch on "
                "an anti-diagonal of the right-hand map (k′ is k's neighbour on it). The shortcut the Hugging Face post "
                "\"You could have designed state of the art positional encoding\" warns against, using the [x, y] pair "
                "directly, intermixes the two offsets too. The fix is axial's: give each axis planes of its own, "
                "so that every plane turns with one coordinate only."
            </p>
            <h3>"Where 2D RoPE is used"</h3>
            <ul class="uses">
                <li><strong>"EVA-02"</strong>" (Fang et al., 2023): a plain ViT with axial 2D RoPE in every attention layer, as above."</li>
                <li><strong>"RoPE-ViT"</strong>" (Heo et al., ECCV 2024): compares RoPE-Axial (base 100) with RoPE-Mixed, which learns "
                    "for each plane its own frequency along x and along y (angle x·θˣ + y·θʸ): still a function of the offset, "
                    "and with different learned θˣ and θʸ no anti-diagonal collision."</li>
                <li><strong>"Qwen2-VL"</strong>" (Wang et al., 2024): 2D RoPE in its vision encoder, and M-RoPE in the language model, which "
                    "splits each head's planes into time, height and width sections (16, 24 and 24 of the 64 planes of a 128-dimension head)."</li>
            </ul>
            <Check name="shift-2d" look="the axial score readout as you move both patches" ask=Arc::new(move || {
                let (query, key) = patches.get();
                rope.with(|rope| {
                    vectors.with(|v| match (rope.as_ref(), v.as_ref()) {
                        (Some(rope), Some(v)) => shift_2d(rope, &v.q, &v.k, query, key),
                        _ => Question::default(),
                    })
                })
            }) />
        </WidgetCard>
    }
}

/// How the planes are shared out between x and y at this d, as the score uses them.
fn split_text((x, y): (usize, usize)) -> String {
    let d = 2 * (x + y);
    if y == 0 {
        format!(
            "At d = {d} there is one plane: it turns with x, and no plane is left for y, so the axial score ignores Δy \
             (move the key up or down and it does not change). "
        )
    } else if x == y {
        format!("Here {x} planes turn with x and {y} with y (d = {d}), each axis with θₐ = b^(−a/{x}). ")
    } else {
        format!(
            "Here there are d/2 = {}, an odd number of planes, so the split is uneven: {x} turn with x, with θₐ = b^(−a/{x}), and {y} with y, with \
             θₐ = b^(−a/{y}) (d = {d}). ",
            x + y
        )
    }
}

/// Where k′ is, and what its score shows.
fn partner_hint(scores: Option<Scores>, lesson: &str) -> String {
    match scores.and_then(|s| s.partner) {
        Some(((x, y), _, _)) => format!("k′ at column {x}, row {y}: {lesson}"),
        None => "k is in a corner: no other patch has its x + y".to_string(),
    }
}

/// One 8 × 8 map of the query's score with every key patch (SVG cells on the diverging scale),
/// with q, k and k′ outlined.
#[component]
fn ScoreMap(maps: Memo<Option<Maps>>, patches: Memo<((u8, u8), (u8, u8))>, axial: bool) -> impl IntoView {
    const CELL: f64 = 10.0;
    let fill = move |cell: usize| {
        maps.with(|m| {
            m.as_ref().map_or_else(
                || "none".to_string(),
                |m| {
                    let (r, g, b) = diverging(m.values(axial)[cell] / m.limit);
                    format!("rgb({r},{g},{b})")
                },
            )
        })
    };
    let mark = move |at: Option<(i64, i64)>, class: &'static str, text: &'static str| {
        at.map(|(x, y)| view! {
            <rect class=class x=x as f64 * CELL + 0.6 y=y as f64 * CELL + 0.6 width=CELL - 1.2 height=CELL - 1.2 />
            <text class="map-mark-text" x=x as f64 * CELL + CELL / 2.0 y=y as f64 * CELL + CELL * 0.68 text-anchor="middle">{text}</text>
        })
    };
    let title = if axial { "axial: x and y in separate planes" } else { "the wrong way: (x + y)·θᵢ in every plane" };
    let summary = move || {
        let ((qx, qy), _) = patches.get();
        maps.with(|m| match m {
            Some(m) => {
                let v = m.values(axial);
                let (best, _) = v.iter().enumerate().fold((0, f64::NEG_INFINITY), |b, (i, s)| if *s > b.1 { (i, *s) } else { b });
                format!(
                    "{title}. Score of the query at column {qx}, row {qy} with a key at every patch; highest at column {}, row {}{}",
                    best % GRID,
                    best / GRID,
                    if axial { "." } else { "; patches with the same column + row always score the same." }
                )
            }
            None => format!("{title}: drawn when scrolled into view."),
        })
    };
    view! {
        <figure class="score-map">
            <svg viewBox=format!("0 0 {} {}", GRID as f64 * CELL, GRID as f64 * CELL) role="img" aria-label=summary>
                {(0..GRID * GRID).map(|cell| view! {
                    <rect x=(cell % GRID) as f64 * CELL y=(cell / GRID) as f64 * CELL width=CELL height=CELL fill=move || fill(cell) />
                }).collect_view()}
                // The outlines follow the patches alone (k′ is k's neighbour on its anti-diagonal),
                // so a step of base or d, which changes the scores, does not rebuild them.
                {move || {
                    let (q, k) = patches.get();
                    let partner = collision_partner(patch(k), GRID as i64);
                    view! {
                        {mark(partner, "map-mark partner", "k′")}
                        {mark(Some(patch(k)), "map-mark key", "k")}
                        {mark(Some(patch(q)), "map-mark query", "q")}
                    }
                }}
            </svg>
            <figcaption>{title}</figcaption>
        </figure>
    }
}
