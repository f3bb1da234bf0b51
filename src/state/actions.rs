//! What a reader does to the state beyond setting one parameter, as domain methods (like
//! todomvc's `Todos::add`): shift both positions, draw new vectors, make k equal q.

use super::{Change, LabState, Notes, Notice};
use crate::rope::{ScalingMethod, MAX_POSITION};

impl LabState {
    /// Moves m (and n too when `both`) by `by` tokens; false, and nothing moves, if that would
    /// leave 0..=MAX_POSITION.
    pub fn shift_positions(&mut self, by: i64, both: bool) -> bool {
        let (m, n) = (self.m.saturating_add(by), if both { self.n.saturating_add(by) } else { self.n });
        let valid = |p: i64| (0..=MAX_POSITION).contains(&p);
        if !valid(m) || !valid(n) {
            return false;
        }
        (self.m, self.n) = (m, n);
        true
    }

    /// Moves both patches of the "rope2d" chapter by (dx, dy) patches; false, and nothing
    /// moves, if either would leave the grid.
    pub fn shift_patches(&mut self, dx: i64, dy: i64) -> bool {
        match shifted_patches((self.query_patch, self.key_patch), dx, dy) {
            Some(moved) => {
                (self.query_patch, self.key_patch) = moved;
                true
            }
            None => false,
        }
    }

    /// Picks a context-extension method in the chapter, as method A or as method B (`None`: no
    /// B). A method picked there should show what it does: with no factor set and a factor of
    /// 1 in effect, the factor becomes 8 (Llama 3.1's and YaRN's default), and p-RoPE keeping
    /// every plane keeps half of them instead.
    pub fn pick_method(&mut self, method: Option<ScalingMethod>, as_b: bool) -> Vec<Notice> {
        let mut changes = vec![if as_b { Change::ScalingB(method) } else { Change::Scaling(method.unwrap_or(ScalingMethod::None)) }];
        let after_a = if as_b { self.scaling } else { method.unwrap_or(ScalingMethod::None) };
        let after_b = if as_b { method } else { self.scaling_b };
        let scales = [Some(after_a), after_b].into_iter().flatten().any(|m| m != ScalingMethod::None);
        if scales && self.factor.is_none() && after_a.default_factor() == 1.0 {
            changes.push(Change::Factor(Some(8.0)));
        }
        if method == Some(ScalingMethod::Proportional) && self.partial >= 1.0 {
            changes.push(Change::Partial(0.5));
        }
        self.apply_all(changes)
    }

    /// Places the query at m and the key at n at once (a click on the heatmap).
    pub fn move_to(&mut self, m: i64, n: i64) -> Vec<Notice> {
        self.apply_all([Change::M(m), Change::N(n)])
    }

    /// Several changes validated together, then the invariants between them restored once.
    pub fn apply_all(&mut self, changes: impl IntoIterator<Item = Change>) -> Vec<Notice> {
        let mut notes = Notes::default();
        for change in changes {
            self.apply_into(change, &mut notes);
        }
        self.normalize_into(&mut notes);
        self.stamp(notes)
    }

    /// A fresh random q and k: the next seed, typed vectors dropped.
    pub fn redraw_vectors(&mut self) {
        self.seed = self.seed.wrapping_add(1);
        self.use_seeded_vectors();
    }

    /// Back to the vectors drawn from the seed.
    pub fn use_seeded_vectors(&mut self) {
        self.q = None;
        self.k = None;
    }

    /// k becomes a copy of q: the score of a vector with itself.
    pub fn key_equals_query(&mut self) {
        let q = self.query_vector();
        self.k = Some(q.clone());
        self.q = Some(q);
    }

    /// q and k both the unit vector along dimension `dimension` (clamped into the head).
    pub fn one_hot(&mut self, dimension: usize) {
        let mut one_hot = vec![0.0; self.dim];
        one_hot[dimension.min(self.dim - 1)] = 1.0;
        self.k = Some(one_hot.clone());
        self.q = Some(one_hot);
    }
}

/// Both patches (query, key) moved by (dx, dy), or `None` if either would leave the grid.
pub fn shifted_patches(patches: ((u8, u8), (u8, u8)), dx: i64, dy: i64) -> Option<((u8, u8), (u8, u8))> {
    let moved = |(x, y): (u8, u8)| {
        let (x, y) = (x as i64 + dx, y as i64 + dy);
        let inside = |v: i64| (0..super::PATCH_GRID as i64).contains(&v);
        (inside(x) && inside(y)).then_some((x as u8, y as u8))
    };
    Some((moved(patches.0)?, moved(patches.1)?))
}
