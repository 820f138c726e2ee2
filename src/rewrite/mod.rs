//! rewrite: edits on the model. Each edit updates the model and records the text patch that
//! makes the written module say the same; each leaves the module valid IR on its own.

use crate::model::*;
use crate::write::{global_name, quote_name};
use cranelift_entity::EntityRef;
use std::sync::Arc;

mod fold;
mod preserve;
mod spelling;
pub use fold::{DebugInfo, alias_text, thunk_text};
pub use preserve::{KeptEntry, kept_entry};

impl Module {
    pub(crate) fn patch(&mut self, span: Span, text: impl Into<Arc<str>>) {
        self.patch_slot(span, PatchSlot::Text, text.into());
    }

    /// Remove the text of `span`. The empty text is `Arc::default()`, one static text shared
    /// by every removal: a merge removes tens of thousands of functions.
    pub(crate) fn remove_text(&mut self, span: Span) {
        self.patch_slot(span, PatchSlot::Text, Arc::default());
    }

    fn patch_slot(&mut self, span: Span, slot: PatchSlot, text: Arc<str>) {
        self.drop_what_edits_invalidate();
        // A later edit of the same text replaces the earlier one when written: an index to
        // replace it here would cost more than the few patches it saves.
        self.patches.push(Patch { span, slot, text });
    }

    /// Rename a global; every reference follows. An implicit `comdat` keeps naming the old
    /// comdat. `new_name` is the bare name (without `@`), quoted as needed.
    pub fn rename_global(&mut self, g: GlobalId, new_name: &[u8]) {
        self.rename_global_to(g, GlobalName::Named(new_name.into()));
    }

    /// [`Module::rename_global`] to a name or a number.
    pub fn rename_global_to(&mut self, g: GlobalId, name: GlobalName) {
        let old = global_name(&self.globals[g].name);
        let text: Arc<str> = global_name(&name).into();
        for u in self.uses_of(g).collect::<Vec<_>>() {
            let span = self.uses[u].span;
            self.patch(span, text.clone());
        }
        // Spelled out once, under the name it had then (the one the text gives it).
        if let GlobalKind::Function(f) = self.globals[g].kind
            && let Some(c) = self.functions[f]
                .extras
                .as_mut()
                .and_then(|e| e.comdat.as_mut())
            && c.implicit
        {
            c.implicit = false;
            let span = c.span;
            self.patch(span, format!("comdat(${})", &old[1..]));
        }
        match &self.globals[g].name {
            GlobalName::Named(n) => self.global_by_name.remove(n),
            GlobalName::Numbered(n) => self.global_by_number.remove(n),
        };
        match &name {
            GlobalName::Named(n) => self.global_by_name.insert(n.clone(), g),
            GlobalName::Numbered(n) => self.global_by_number.insert(*n, g),
        };
        self.globals[g].name = name;
        if self.retargeted_to.as_ref().is_some_and(|(to, _)| *to == g) {
            self.retargeted_to = None;
        }
    }

    /// Make one use refer to another global instead (a use whose text is gone stays gone).
    pub fn retarget_use(&mut self, u: UseId, to: GlobalId) {
        if self.uses[u].dropped {
            return;
        }
        let from = self.uses[u].global;
        self.globals[from].uses.retain(|&x| x != u);
        self.globals[to].uses.push(u);
        self.uses[u].global = to;
        let span = self.uses[u].span;
        let text = self.name_text(to);
        self.patch(span, text);
    }

    /// The text of `g`'s name, shared with the last retargeting edit's when it named `g`.
    fn name_text(&mut self, g: GlobalId) -> Arc<str> {
        match &self.retargeted_to {
            Some((to, text)) if *to == g => text.clone(),
            _ => {
                let text: Arc<str> = global_name(&self.globals[g].name).into();
                self.retargeted_to = Some((g, text.clone()));
                text
            }
        }
    }

    /// Make several uses of one global refer to another global instead.
    pub fn retarget_uses(&mut self, uses: &[UseId], to: GlobalId) {
        let Some(&first) = uses.first() else {
            return;
        };
        let from = self.uses[first].global;
        let mut moved = uses.to_vec();
        moved.retain(|&u| !self.uses[u].dropped);
        moved.sort_unstable();
        self.globals[from]
            .uses
            .retain(|u| moved.binary_search(u).is_err());
        let text = self.name_text(to);
        for &u in &moved {
            self.uses[u].global = to;
            let span = self.uses[u].span;
            self.patch(span, text.clone());
        }
        self.globals[to].uses.extend(moved);
    }

    /// Replace a function's body (`{` to `}`) with `text`. The uses inside the old body are
    /// dropped from the model; the model's `Body` keeps describing the text that was read.
    pub fn replace_body(&mut self, f: FuncId, text: String) {
        let Some(info) = self.functions[f].body.clone() else {
            return;
        };
        self.drop_uses(info.uses().collect());
        self.functions[f].rewritten = true;
        self.patch(info.span, text);
    }

    /// Delete a function (its whole text and the line it stood on).
    pub fn delete_function(&mut self, f: FuncId) {
        self.delete_function_naming(f);
    }

    /// [`Module::delete_function`], returning the globals its text named, as many times as it
    /// named them: deleting it may leave them unreferenced.
    pub(crate) fn delete_function_naming(&mut self, f: FuncId) -> Vec<GlobalId> {
        let span = self.function_lines(f);
        let uses = self.function_uses(f, span);
        let named = (uses.iter())
            .filter(|&&u| !self.uses[u].dropped)
            .map(|&u| self.uses[u].global)
            .collect();
        self.drop_uses(uses);
        self.functions[f].deleted = true;
        self.remove_text(span);
        named
    }

    /// Remove a function's text, which is replaced by text written elsewhere: after the
    /// module, where LLVM puts a function it creates (a thunk, which takes the place of the
    /// function it replaces), or among the aliases ([`Module::add_alias_text`]).
    pub fn remove_replaced_function(&mut self, f: FuncId) {
        let span = self.function_lines(f);
        self.drop_function_uses(f, span);
        self.functions[f].rewritten = true;
        self.remove_text(span);
    }

    /// A function's text with the line it ends and the blank lines after it.
    fn function_lines(&self, f: FuncId) -> Span {
        let func = &self.functions[f];
        Span::new(
            func.span.start as usize,
            (func.span.end + func.newlines_after) as usize,
        )
    }

    /// Forget the uses in the text of function `f`, `span` (its text, or more).
    pub(crate) fn drop_function_uses(&mut self, f: FuncId, span: Span) {
        let uses = self.function_uses(f, span);
        self.drop_uses(uses);
    }

    /// The uses of globals in `f`'s text, `span`: its header's and its body's.
    fn function_uses(&self, f: FuncId, span: Span) -> Vec<UseId> {
        // The header's uses are top-level ones, which are in source order: its definition's
        // and those after it in the header. (Found by a search of all the top-level uses, they
        // cost a merge of 40,000 tiny functions 3% of its time in cache misses.) Without a
        // live definition, they went with it before.
        let own = self.functions[f].global;
        let definition = self
            .uses_of(own)
            .find(|&u| self.uses[u].role == UseRole::Definition);
        let header = definition.map_or(0..0, |d| d.index()..self.top_level_uses as usize);
        let mut dropped: Vec<UseId> = header
            .map(UseId::new)
            .take_while(|&u| self.uses[u].span.end <= span.end)
            .collect();
        if let Some(info) = &self.functions[f].body {
            dropped.extend(info.uses());
        }
        dropped
    }

    /// Delete at the first edit what an edit makes wrong: the `uselistorder` directives (an
    /// order lists every use of a value, and LLVM refuses one that no longer does) and the
    /// summary entries (an index of the module as it was; `llvm-as` refuses one naming a
    /// function that is gone). Neither is part of what a module computes, and LLVM prints
    /// them only when asked to. A summary entry goes with the rest of its line (LLVM ends it
    /// with a `; guid = ...` comment).
    fn drop_what_edits_invalidate(&mut self) {
        for mut span in std::mem::take(&mut self.use_list_orders) {
            if self.source.as_bytes().get(span.end as usize) == Some(&b'\n') {
                span.end += 1;
            }
            self.remove_text(span);
        }
        for mut span in std::mem::take(&mut self.summary_entries) {
            let rest = &self.source.as_bytes()[span.end as usize..];
            let line = rest
                .iter()
                .position(|&b| b == b'\n')
                .map_or(rest, |n| &rest[..=n]);
            let blank = line.iter().position(|b| !b.is_ascii_whitespace());
            if blank.is_none_or(|i| line[i] == b';') {
                span.end += line.len() as u32;
            }
            self.remove_text(span);
        }
    }

    /// Forget these uses (they were in text that is gone). Each is marked dropped, and a
    /// global's list is cleared of them once they are half of it: removing them at once cost
    /// a pass over the list at each fold, which a callee of thousands of folded functions
    /// made quadratic.
    fn drop_uses(&mut self, uses: Vec<UseId>) {
        for u in uses {
            let use_ = &mut self.uses[u];
            if use_.dropped {
                continue;
            }
            use_.dropped = true;
            let global = &mut self.globals[use_.global];
            global.dropped_uses += 1;
            if 2 * global.dropped_uses as usize >= global.uses.len() {
                let uses = &self.uses;
                global.uses.retain(|&u| !uses[u].dropped);
                global.dropped_uses = 0;
            }
        }
    }

    /// Append a top-level entity written by the caller (a function, declaration or alias).
    pub fn append_entity(&mut self, text: &str) {
        self.drop_what_edits_invalidate();
        if !self.appended.is_empty() {
            self.appended.push('\n');
        }
        self.appended.push_str(text.trim_end());
        self.appended.push('\n');
    }

    /// Add an alias written by the caller before the first function, after the aliases
    /// before it, where LLVM prints aliases.
    pub fn add_alias_text(&mut self, text: &str) {
        self.drop_what_edits_invalidate();
        self.aliases_added.push_str(text.trim_end());
        self.aliases_added.push('\n');
    }

    /// Insert a top-level entity written by the caller just before function `f`'s text.
    pub fn insert_entity_before(&mut self, f: FuncId, text: &str) {
        let at = self.functions[f].span.start;
        self.patch(Span::empty_at(at), format!("{}\n\n", text.trim_end()));
    }

    /// Append a metadata node (`!DILocation(...)`) under the first number the module does not
    /// use; returns the reference, `!N`.
    pub fn append_metadata(&mut self, node: &str) -> String {
        let number = self
            .next_appended_metadata
            .unwrap_or_else(|| self.md_by_number.max_number().map_or(0, |n| n + 1));
        self.next_appended_metadata = Some(number + 1);
        self.append_entity(&format!("!{number} = {node}"));
        format!("!{number}")
    }

    /// Add `declare <header>` for a function type, e.g. `add_declaration("puts", "i32 (ptr)")`'s
    /// effect, written as LLVM does.
    pub fn add_declaration(&mut self, name: &[u8], fn_ty: TypeId) {
        let (ret, params, varargs) = match self.types.get(fn_ty) {
            Type::Function {
                ret,
                params,
                varargs,
            } => (*ret, params.clone(), *varargs),
            _ => return,
        };
        let mut args: Vec<String> = params.iter().map(|p| self.types.display(*p)).collect();
        if varargs {
            args.push("...".into());
        }
        let text = format!(
            "declare {} @{}({})",
            self.types.display(ret),
            quote_name(name),
            args.join(", ")
        );
        self.append_entity(&text);
    }

    /// Add `@name = <linkage> [unnamed_addr] alias <value type>, ptr @target` (`ptr
    /// addrspace(N)` for a target in another address space).
    pub fn add_alias(
        &mut self,
        name: &[u8],
        linkage: Linkage,
        unnamed: UnnamedAddr,
        value_ty: TypeId,
        target: GlobalId,
    ) {
        let mut head = String::new();
        for w in [linkage.keyword(), unnamed.keyword()] {
            if !w.is_empty() {
                head.push_str(w);
                head.push(' ');
            }
        }
        let text = format!(
            "@{} = {head}alias {}, {} {}",
            quote_name(name),
            self.types.display(value_ty),
            pointer_text(self.global_addr_space(target)),
            global_name(&self.globals[target].name)
        );
        self.add_alias_text(&text);
    }

    /// Change the linkage. A local linkage resets visibility to default and drops DLL storage,
    /// as the verifier requires.
    pub fn set_linkage(&mut self, g: GlobalId, linkage: Linkage) {
        self.edit_linkable(g, |l| {
            l.linkage = linkage;
            if linkage.is_local() {
                l.visibility = Visibility::Default;
                l.dll_storage_at = Span::default();
            }
        });
    }

    /// Take a function out of its comdat (the `comdat` of its header goes, with the space
    /// before it).
    pub fn leave_comdat(&mut self, f: FuncId) {
        let Some(c) = self.functions[f]
            .extras
            .as_mut()
            .and_then(|e| e.comdat.take())
        else {
            return;
        };
        self.patch(
            Span::new(c.spaced_from as usize, c.span.end as usize),
            String::new(),
        );
    }

    pub fn set_visibility(&mut self, g: GlobalId, visibility: Visibility) {
        self.edit_linkable(g, |l| l.visibility = visibility);
    }

    pub fn set_unnamed_addr(&mut self, g: GlobalId, unnamed: UnnamedAddr) {
        let Some(l) = self.linkable_mut(g) else {
            return;
        };
        l.unnamed_addr = unnamed;
        let span = l.unnamed_addr_span;
        let text = if span.is_empty() && unnamed != UnnamedAddr::None {
            format!("{} ", unnamed.keyword())
        } else {
            unnamed.keyword().to_string()
        };
        self.patch_slot(span, PatchSlot::UnnamedAddr, text.into());
    }

    fn linkable_mut(&mut self, g: GlobalId) -> Option<&mut Linkable> {
        match self.globals[g].kind {
            GlobalKind::Function(f) => Some(&mut self.functions[f].link),
            GlobalKind::Variable(v) => Some(&mut self.variables[v].link),
            GlobalKind::Alias(a) => Some(&mut self.aliases[a].link),
            GlobalKind::Pending | GlobalKind::Intrinsic => None,
        }
    }

    fn edit_linkable(&mut self, g: GlobalId, edit: impl FnOnce(&mut Linkable)) {
        let Some(l) = self.linkable_mut(g) else {
            return;
        };
        edit(l);
        let l = l.clone();
        let mut words: Vec<String> = Vec::new();
        words.push(l.linkage.keyword().to_string());
        if let Some(s) = l.dso_local() {
            if !l.linkage.is_local() {
                words.push(self.text(s).to_string());
            }
        }
        words.push(
            match l.visibility {
                Visibility::Default => "",
                Visibility::Hidden => "hidden",
                Visibility::Protected => "protected",
            }
            .to_string(),
        );
        if let Some(s) = l.dll_storage() {
            words.push(self.text(s).to_string());
        }
        let mut text = words
            .into_iter()
            .filter(|w| !w.is_empty())
            .collect::<Vec<_>>()
            .join(" ");
        if !text.is_empty() {
            text.push(' ');
        }
        self.patch_slot(l.prefix_span, PatchSlot::LinkagePrefix, text.into());
    }
}
