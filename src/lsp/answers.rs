//! The server's answers: each request read from a document's outline or
//! its diagnostics and written in the protocol's terms.

use super::position::LineIndex;
use super::{Document, Documents};
use crate::common::diagnostic::{Diagnostic, Severity};
use crate::common::outline::{CompletionKind, Outline, SymbolKind, TokenKind};
use crate::driver::{self, Language};
use crate::lang::{FormatOptions, Renumber};
use lsp_server::Request;
use lsp_types::request::{
    CodeActionRequest, Completion, DocumentSymbolRequest, FoldingRangeRequest, Formatting,
    GotoDefinition, HoverRequest, PrepareRenameRequest, References, Rename, Request as RequestType,
    SemanticTokensFullRequest,
};
use lsp_types::{self as lsp, Uri};
use serde_json::Value;
use std::collections::HashMap;

/// Why a request gets no answer.
pub(super) enum Refusal {
    /// A method the server does not answer.
    Unknown(String),
    /// Parameters that do not fit the method, or a document never opened.
    BadParams(String),
    /// The request cannot be carried out, and why (shown to the user).
    Failed(String),
}

type Answer = Result<Value, Refusal>;

/// The semantic token types, in [`TokenKind`]'s order of [`token_type`].
pub(super) fn legend() -> lsp::SemanticTokensLegend {
    lsp::SemanticTokensLegend {
        token_types: vec![
            lsp::SemanticTokenType::COMMENT,
            lsp::SemanticTokenType::KEYWORD,
            lsp::SemanticTokenType::FUNCTION,
            lsp::SemanticTokenType::VARIABLE,
            lsp::SemanticTokenType::TYPE,
            lsp::SemanticTokenType::ENUM_MEMBER,
            lsp::SemanticTokenType::NUMBER,
            lsp::SemanticTokenType::STRING,
            lsp::SemanticTokenType::OPERATOR,
        ],
        token_modifiers: vec![lsp::SemanticTokenModifier::DECLARATION],
    }
}

/// The index in [`legend`] of a token kind, and its modifier bits.
fn token_type(kind: TokenKind) -> (u32, u32) {
    match kind {
        TokenKind::Comment => (0, 0),
        TokenKind::Keyword => (1, 0),
        TokenKind::Definition => (2, 1),
        TokenKind::Target => (2, 0),
        TokenKind::Variable => (3, 0),
        TokenKind::Type => (4, 0),
        TokenKind::EnumMember => (5, 0),
        TokenKind::Number => (6, 0),
        TokenKind::String => (7, 0),
        TokenKind::Operator => (8, 0),
    }
}

/// `found`, the diagnostics of `text`, in the protocol's form: the
/// headline with the notes below it, as the command line prints them, and
/// the secondary places as related information. At most [`MAX_PUBLISHED`]
/// are sent (a binary file opened by mistake has a diagnostic a line);
/// then one more, where the next would be, counts the rest.
pub(super) fn diagnostics(
    found: &[Diagnostic],
    text: &str,
    index: &LineIndex,
    uri: &Uri,
) -> Vec<lsp::Diagnostic> {
    let mut out: Vec<lsp::Diagnostic> = found
        .iter()
        .take(MAX_PUBLISHED)
        .map(|d| to_lsp(d, text, index, uri))
        .collect();
    if let Some(next) = found.get(MAX_PUBLISHED) {
        let errors = found[MAX_PUBLISHED..]
            .iter()
            .filter(|d| d.is_error())
            .count();
        out.push(lsp::Diagnostic {
            range: index.range(text, &next.primary.span),
            severity: Some(lsp::DiagnosticSeverity::INFORMATION),
            source: Some("icp2c".to_string()),
            message: format!(
                "… and {} more diagnostics ({errors} errors) not shown: `icp2c --check` lists them",
                found.len() - MAX_PUBLISHED
            ),
            ..lsp::Diagnostic::default()
        });
    }
    out
}

/// At most this many diagnostics of a document are published.
pub const MAX_PUBLISHED: usize = 1000;

/// The front end's diagnostics of `text` as `language` checks it: its
/// errors, or the warnings of a program that checks.
pub(super) fn found(language: Language, text: &str) -> Vec<Diagnostic> {
    match driver::check(language, text) {
        Ok(checked) => checked.warnings,
        Err(errors) => errors,
    }
}

fn to_lsp(d: &Diagnostic, text: &str, index: &LineIndex, uri: &Uri) -> lsp::Diagnostic {
    let mut message = d.message.clone();
    if !d.primary.message.is_empty() {
        message.push_str(&format!(" ({})", d.primary.message));
    }
    for note in &d.notes {
        message.push('\n');
        message.push_str(note);
    }
    let related: Vec<lsp::DiagnosticRelatedInformation> = d
        .secondary
        .iter()
        .map(|l| lsp::DiagnosticRelatedInformation {
            location: lsp::Location::new(uri.clone(), index.range(text, &l.span)),
            message: if l.message.is_empty() {
                "here".to_string()
            } else {
                l.message.clone()
            },
        })
        .collect();
    lsp::Diagnostic {
        range: index.range(text, &d.primary.span),
        severity: Some(match d.severity {
            Severity::Error => lsp::DiagnosticSeverity::ERROR,
            Severity::Warning => lsp::DiagnosticSeverity::WARNING,
        }),
        source: Some("icp2c".to_string()),
        message,
        related_information: (!related.is_empty()).then_some(related),
        ..lsp::Diagnostic::default()
    }
}

fn params<P: serde::de::DeserializeOwned>(request: Request) -> Result<P, Refusal> {
    serde_json::from_value(request.params).map_err(|e| Refusal::BadParams(e.to_string()))
}

fn document<'d>(documents: &'d Documents, uri: &Uri) -> Result<&'d Document, Refusal> {
    documents
        .get(uri.as_str())
        .ok_or_else(|| Refusal::BadParams(format!("{} is not open", uri.as_str())))
}

fn json<T: serde::Serialize>(value: T) -> Answer {
    serde_json::to_value(value).map_err(|e| Refusal::Failed(e.to_string()))
}

/// The document and byte offset of a position parameter.
fn at<'d>(
    documents: &'d Documents,
    p: &lsp::TextDocumentPositionParams,
) -> Result<(&'d Document, usize), Refusal> {
    let doc = document(documents, &p.text_document.uri)?;
    Ok((doc, doc.index.offset(&doc.text, p.position)))
}

/// Answers one request.
pub(super) fn answer(documents: &Documents, request: Request) -> Answer {
    match request.method.as_str() {
        HoverRequest::METHOD => {
            let p: lsp::HoverParams = params(request)?;
            let (doc, offset) = at(documents, &p.text_document_position_params)?;
            json(doc.outline().hover_at(offset).map(|h| lsp::Hover {
                contents: lsp::HoverContents::Markup(markdown(&h.text)),
                range: Some(doc.index.range(&doc.text, &h.span)),
            }))
        }
        Completion::METHOD => {
            let p: lsp::CompletionParams = params(request)?;
            let (doc, offset) = at(documents, &p.text_document_position)?;
            json(completions(doc, offset))
        }
        GotoDefinition::METHOD => {
            let p: lsp::GotoDefinitionParams = params(request)?;
            let uri = p.text_document_position_params.text_document.uri.clone();
            let (doc, offset) = at(documents, &p.text_document_position_params)?;
            let outline = doc.outline();
            // Every definition of the name: a Finvara turn has two (its
            // `W` and its `B` line), and a jump may go to either.
            let mut found: Vec<lsp::Location> = match outline.name_at(offset) {
                Some((kind, name)) => outline
                    .symbols
                    .iter()
                    .filter(|s| s.kind == kind && s.name == name)
                    .map(|s| lsp::Location::new(uri.clone(), doc.index.range(&doc.text, &s.span)))
                    .collect(),
                None => Vec::new(),
            };
            json(match found.len() {
                0 => None,
                1 => found.pop().map(lsp::GotoDefinitionResponse::Scalar),
                _ => Some(lsp::GotoDefinitionResponse::Array(found)),
            })
        }
        References::METHOD => {
            let p: lsp::ReferenceParams = params(request)?;
            let uri = p.text_document_position.text_document.uri.clone();
            let (doc, offset) = at(documents, &p.text_document_position)?;
            let spans = uses(doc.outline(), offset, p.context.include_declaration);
            json(
                spans
                    .iter()
                    .map(|s| lsp::Location::new(uri.clone(), doc.index.range(&doc.text, s)))
                    .collect::<Vec<_>>(),
            )
        }
        PrepareRenameRequest::METHOD => {
            let p: lsp::TextDocumentPositionParams = params(request)?;
            let (doc, offset) = at(documents, &p)?;
            let outline = doc.outline();
            if let Some((_, why)) = &outline.rename_blocker {
                return Err(Refusal::Failed(why.clone()));
            }
            let span = outline
                .symbols
                .iter()
                .map(|s| &s.span)
                .chain(outline.references.iter().map(|r| &r.span))
                .find(|s| s.start <= offset && offset <= s.end);
            json(
                span.map(|s| lsp::PrepareRenameResponse::RangeWithPlaceholder {
                    range: doc.index.range(&doc.text, s),
                    placeholder: doc.text[s.clone()].to_string(),
                }),
            )
        }
        Rename::METHOD => {
            let p: lsp::RenameParams = params(request)?;
            let uri = p.text_document_position.text_document.uri.clone();
            let (doc, offset) = at(documents, &p.text_document_position)?;
            let edits = rename(doc, offset, &p.new_name).map_err(Refusal::Failed)?;
            json(workspace_edit(uri, text_edits(doc, edits)))
        }
        DocumentSymbolRequest::METHOD => {
            let p: lsp::DocumentSymbolParams = params(request)?;
            let doc = document(documents, &p.text_document.uri)?;
            json(lsp::DocumentSymbolResponse::Nested(symbols(doc)))
        }
        SemanticTokensFullRequest::METHOD => {
            let p: lsp::SemanticTokensParams = params(request)?;
            let doc = document(documents, &p.text_document.uri)?;
            json(lsp::SemanticTokensResult::Tokens(tokens(doc)))
        }
        FoldingRangeRequest::METHOD => {
            let p: lsp::FoldingRangeParams = params(request)?;
            let doc = document(documents, &p.text_document.uri)?;
            json(
                doc.outline()
                    .folds
                    .iter()
                    .map(|f| {
                        let r = doc.index.range(&doc.text, f);
                        lsp::FoldingRange {
                            start_line: r.start.line,
                            end_line: r.end.line,
                            kind: Some(lsp::FoldingRangeKind::Comment),
                            ..lsp::FoldingRange::default()
                        }
                    })
                    .collect::<Vec<_>>(),
            )
        }
        CodeActionRequest::METHOD => {
            let p: lsp::CodeActionParams = params(request)?;
            let uri = p.text_document.uri.clone();
            let doc = document(documents, &uri)?;
            json(code_actions(doc, &uri, p.range))
        }
        Formatting::METHOD => {
            let p: lsp::DocumentFormattingParams = params(request)?;
            let doc = document(documents, &p.text_document.uri)?;
            let formatted = driver::format(doc.language, &doc.text).map_err(|errors| {
                Refusal::Failed(format!(
                    "not formatted: the program has errors ({})",
                    errors.first().map_or("", |d| d.message.as_str())
                ))
            })?;
            json(whole_text_edit(doc, formatted))
        }
        method => Err(Refusal::Unknown(method.to_string())),
    }
}

fn markdown(text: &str) -> lsp::MarkupContent {
    lsp::MarkupContent {
        kind: lsp::MarkupKind::Markdown,
        value: text.to_string(),
    }
}

/// At most this many completion items are sent at once; past it the list
/// is marked incomplete, and the editor asks again as more is typed (a
/// 100,000-statement program has 100,000 labels).
pub const MAX_COMPLETIONS: usize = 1000;

/// The completions that start with the word before `offset` (compared
/// without case), at most [`MAX_COMPLETIONS`] of them.
fn completions(doc: &Document, offset: usize) -> lsp::CompletionList {
    let before = &doc.text[..offset];
    let word_start = before
        .rfind(|c: char| c.is_whitespace() || ",;?!.%\"".contains(c))
        .map_or(0, |i| {
            i + before[i..].chars().next().map_or(1, char::len_utf8)
        });
    let prefix = before[word_start..].to_ascii_lowercase();
    let mut matching = doc
        .outline()
        .completions
        .iter()
        .filter(|c| c.label.to_ascii_lowercase().starts_with(&prefix));
    let items: Vec<lsp::CompletionItem> = matching
        .by_ref()
        .take(MAX_COMPLETIONS)
        .map(|c| lsp::CompletionItem {
            label: c.label.clone(),
            kind: Some(match c.kind {
                CompletionKind::Keyword => lsp::CompletionItemKind::KEYWORD,
                CompletionKind::EnumMember => lsp::CompletionItemKind::ENUM_MEMBER,
                CompletionKind::Variable => lsp::CompletionItemKind::VARIABLE,
                CompletionKind::Reference => lsp::CompletionItemKind::REFERENCE,
                CompletionKind::Type => lsp::CompletionItemKind::CLASS,
            }),
            detail: (!c.detail.is_empty()).then(|| c.detail.clone()),
            documentation: (!c.documentation.is_empty())
                .then(|| lsp::Documentation::MarkupContent(markdown(&c.documentation))),
            ..lsp::CompletionItem::default()
        })
        .collect();
    lsp::CompletionList {
        is_incomplete: matching.next().is_some(),
        items,
    }
}

/// The spans of the definition named at `offset` and of all its uses.
fn uses(outline: &Outline, offset: usize, with_definition: bool) -> Vec<std::ops::Range<usize>> {
    let Some((kind, name)) = outline.name_at(offset) else {
        return Vec::new();
    };
    let definition = outline
        .symbols
        .iter()
        .filter(|s| with_definition && s.kind == kind && s.name == name)
        .map(|s| s.span.clone());
    let references = outline
        .references
        .iter()
        .filter(|r| r.kind == kind && r.name == name)
        .map(|r| r.span.clone());
    let mut all: Vec<_> = definition.chain(references).collect();
    all.sort_by_key(|s| s.start);
    all
}

/// The edits renaming what is named at `offset` to `new_name`: the
/// definition and every use. Refused (with the reason) when the outline
/// forbids renaming, nothing is named there, the name has the wrong
/// shape, or the renamed program would have an error the program did not
/// have (a label out of order, a clash with another name).
fn rename(
    doc: &Document,
    offset: usize,
    new_name: &str,
) -> Result<Vec<(std::ops::Range<usize>, String)>, String> {
    let outline = doc.outline();
    if let Some((_, why)) = &outline.rename_blocker {
        return Err(why.clone());
    }
    let (kind, name) = outline
        .name_at(offset)
        .ok_or("nothing to rename here: rename a label, tag, piece or turn")?;
    let shape_ok = match kind {
        SymbolKind::Label | SymbolKind::Turn => {
            !new_name.is_empty() && new_name.bytes().all(|b| b.is_ascii_digit())
        }
        SymbolKind::Tag => {
            !new_name.is_empty()
                && !new_name.contains(|c: char| c.is_whitespace() || ",;:".contains(c))
        }
        SymbolKind::Piece => new_name.chars().count() == 1,
    };
    if !shape_ok {
        return Err(format!("`{new_name}` cannot name a {}", kind_name(kind)));
    }
    let edits: Vec<_> = uses(outline, offset, true)
        .into_iter()
        .map(|span| (span, new_name.to_string()))
        .collect();
    let renamed = apply(&doc.text, &edits);
    let before: Vec<&str> = doc
        .found()
        .iter()
        .filter(|d| d.is_error())
        .map(|d| d.message.as_str())
        .collect();
    let broken = found(doc.language, &renamed)
        .into_iter()
        .filter(Diagnostic::is_error)
        .find(|d| !before.contains(&d.message.as_str()));
    if let Some(d) = broken {
        return Err(format!(
            "renaming {} {name} to {new_name} would break the program: {}",
            kind_name(kind),
            d.message
        ));
    }
    Ok(edits)
}

fn kind_name(kind: SymbolKind) -> &'static str {
    match kind {
        SymbolKind::Label => "label",
        SymbolKind::Tag => "tag",
        SymbolKind::Piece => "piece",
        SymbolKind::Turn => "turn",
    }
}

/// `text` with `edits` (sorted, not overlapping) made.
fn apply(text: &str, edits: &[(std::ops::Range<usize>, String)]) -> String {
    let mut out = String::with_capacity(text.len());
    let mut at = 0;
    for (span, new) in edits {
        out.push_str(&text[at..span.start]);
        out.push_str(new);
        at = span.end;
    }
    out.push_str(&text[at..]);
    out
}

fn workspace_edit(uri: Uri, edits: Vec<lsp::TextEdit>) -> lsp::WorkspaceEdit {
    lsp::WorkspaceEdit {
        changes: Some(HashMap::from([(uri, edits)])),
        ..lsp::WorkspaceEdit::default()
    }
}

/// Text edits from byte-span edits of `doc`.
fn text_edits(doc: &Document, edits: Vec<(std::ops::Range<usize>, String)>) -> Vec<lsp::TextEdit> {
    edits
        .into_iter()
        .map(|(span, new)| lsp::TextEdit::new(doc.index.range(&doc.text, &span), new))
        .collect()
}

/// One edit replacing the whole text by `new`, or none when it is the same.
fn whole_text_edit(doc: &Document, new: String) -> Vec<lsp::TextEdit> {
    if *doc.text == *new {
        return Vec::new();
    }
    text_edits(doc, vec![(0..doc.text.len(), new)])
}

fn symbols(doc: &Document) -> Vec<lsp::DocumentSymbol> {
    doc.outline()
        .symbols
        .iter()
        .map(|s| {
            #[allow(deprecated)] // `deprecated` is a field the protocol requires us to fill
            lsp::DocumentSymbol {
                name: s.name.clone(),
                detail: (!s.detail.is_empty()).then(|| s.detail.clone()),
                kind: match s.kind {
                    SymbolKind::Label => lsp::SymbolKind::KEY,
                    SymbolKind::Tag => lsp::SymbolKind::FUNCTION,
                    SymbolKind::Piece => lsp::SymbolKind::CLASS,
                    SymbolKind::Turn => lsp::SymbolKind::EVENT,
                },
                tags: None,
                deprecated: None,
                range: doc.index.range(&doc.text, &s.extent),
                selection_range: doc.index.range(&doc.text, &s.span),
                children: None,
            }
        })
        .collect()
}

/// The outline's tokens, relative-encoded as the protocol wants them.
fn tokens(doc: &Document) -> lsp::SemanticTokens {
    let mut data = Vec::new();
    let (mut line, mut start) = (0u32, 0u32);
    for token in &doc.outline().tokens {
        let from = doc.index.position(&doc.text, token.span.start);
        let to = doc.index.position(&doc.text, token.span.end);
        if to.line != from.line || to.character <= from.character {
            continue;
        }
        let (token_type, modifiers) = token_type(token.kind);
        let delta_line = from.line - line;
        let delta_start = if delta_line == 0 {
            from.character - start
        } else {
            from.character
        };
        data.push(lsp::SemanticToken {
            delta_line,
            delta_start,
            length: to.character - from.character,
            token_type,
            token_modifiers_bitset: modifiers,
        });
        (line, start) = (from.line, from.character);
    }
    lsp::SemanticTokens {
        result_id: None,
        data,
    }
}

/// The quick fixes of the diagnostics within `range`, and, for an
/// InfChessPro program, "renumber the statements".
fn code_actions(doc: &Document, uri: &Uri, range: lsp::Range) -> Vec<lsp::CodeActionOrCommand> {
    let from = doc.index.offset(&doc.text, range.start);
    let to = doc.index.offset(&doc.text, range.end);
    let mut actions = Vec::new();
    for d in doc.found() {
        let span = &d.primary.span;
        if span.start > to || span.end < from {
            continue;
        }
        for fix in &d.fixes {
            let edit = text_edits(doc, vec![(fix.span.clone(), fix.replacement.clone())]);
            actions.push(lsp::CodeActionOrCommand::CodeAction(lsp::CodeAction {
                title: fix.title.clone(),
                kind: Some(lsp::CodeActionKind::QUICKFIX),
                diagnostics: Some(vec![to_lsp(d, &doc.text, &doc.index, uri)]),
                edit: Some(workspace_edit(uri.clone(), edit)),
                is_preferred: Some(d.fixes.len() == 1),
                ..lsp::CodeAction::default()
            }));
        }
    }
    if doc.language == Language::InfChessPro {
        let options = FormatOptions {
            renumber: Some(Renumber {
                start: 10,
                step: 10,
            }),
        };
        if let Ok(renumbered) = driver::format_with(doc.language, &doc.text, &options)
            && *renumbered != *doc.text
        {
            actions.push(lsp::CodeActionOrCommand::CodeAction(lsp::CodeAction {
                title: "Renumber the statements 10, 20, 30, … (and format)".to_string(),
                kind: Some(lsp::CodeActionKind::REFACTOR_REWRITE),
                edit: Some(workspace_edit(
                    uri.clone(),
                    whole_text_edit(doc, renumbered),
                )),
                ..lsp::CodeAction::default()
            }));
        }
    }
    actions
}
