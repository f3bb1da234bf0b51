//! The building blocks the chapters share: the card every chapter sits in, its controls
//! (sliders, fields, selects), readouts of computed values, dialogs, exports, formulas and the
//! small views more than one chapter shows (the token strip, the vector editor, the scores).
//! No chapter lives here, and nothing here looks a chapter up.

pub mod card;
pub mod check;
pub mod controls;
pub mod dialog;
pub mod embed;
pub mod export;
pub mod field;
pub mod figure_png;
pub mod formulas;
pub mod gif_button;
pub mod legend;
pub mod math;
pub mod reach_bar;
pub mod readout;
pub mod score_readouts;
pub mod shortcut_sheet;
pub mod slider;
pub mod tokens;
pub mod vector_editor;
