//! `icp2c lsp`: a language server for `.icp`, `.fin` and `.cheg` files
//! over the Language Server Protocol (docs/editors.md).
//!
//! It is the front ends' outline ([`crate::common::outline::Outline`]) and
//! diagnostics, spoken in the protocol: nothing here knows a language.
//! [`serve`] runs the loop on a connection (standard input and output in
//! `icp2c lsp`, an in-memory pair in the tests): requests are answered on
//! this thread from the documents' text, while diagnostics are computed on
//! a thread of their own, once typing pauses ([`DEBOUNCE`]), so that a
//! 100,000-statement file never holds up a hover.

mod answers;
pub mod position;

use crate::common::diagnostic::Diagnostic;
use crate::common::outline::Outline;
use crate::driver::Language;
use lsp_server::{Connection, ErrorCode, Message, Notification, Request, Response};
use lsp_types::notification::{
    DidChangeTextDocument, DidCloseTextDocument, DidOpenTextDocument, Notification as _,
    PublishDiagnostics,
};
use lsp_types::{
    CodeActionKind, CodeActionOptions, CodeActionProviderCapability, CompletionOptions,
    FoldingRangeProviderCapability, HoverProviderCapability, InitializeParams, OneOf,
    PublishDiagnosticsParams, RenameOptions, SemanticTokensFullOptions, SemanticTokensOptions,
    SemanticTokensServerCapabilities, ServerCapabilities, ServerInfo, TextDocumentSyncCapability,
    TextDocumentSyncKind, Uri, WorkDoneProgressOptions,
};
use position::LineIndex;
use std::collections::HashMap;
use std::sync::mpsc;
use std::sync::{Arc, OnceLock};
use std::time::Duration;

/// How long typing must pause before a document's diagnostics are
/// computed again: a burst of changes is checked once, at its end.
pub const DEBOUNCE: Duration = Duration::from_millis(150);

/// The open documents, by URI (as text: the protocol's URI type is no
/// hash key).
pub(crate) type Documents = HashMap<String, Document>;

/// An open document: its language, text and version, and what has been
/// worked out of it so far.
pub(crate) struct Document {
    /// The language, from the editor's language id or the file extension.
    pub language: Language,
    /// The whole text, as the editor last sent it.
    pub text: Arc<str>,
    /// The editor's version of it.
    pub version: i32,
    /// Its lines (shared with the diagnostics thread).
    pub index: Arc<LineIndex>,
    /// What is worked out of the text, once.
    analysis: Arc<Analysis>,
}

/// What is worked out of a document's text: by the diagnostics thread,
/// ahead of the requests, or by the first request that needs it before
/// then, whichever comes first.
#[derive(Default)]
struct Analysis {
    /// The front end's diagnostics.
    found: OnceLock<Vec<Diagnostic>>,
    /// The outline.
    outline: OnceLock<Outline>,
}

impl Document {
    fn new(language: Language, text: String, version: i32) -> Document {
        Document {
            language,
            index: Arc::new(LineIndex::new(&text)),
            text: text.into(),
            version,
            analysis: Arc::default(),
        }
    }

    /// The outline of the current text.
    pub fn outline(&self) -> &Outline {
        self.analysis
            .outline
            .get_or_init(|| self.language.outline(&self.text))
    }

    /// The front end's diagnostics of the current text.
    pub fn found(&self) -> &[Diagnostic] {
        self.analysis
            .found
            .get_or_init(|| answers::found(self.language, &self.text))
    }
}

/// The language of a document: its language id (`infchesspro`, `finvara`,
/// `cheg`, or an extension), else its file name's extension, else
/// InfChessPro (as `icp2c` reads a file with any other extension).
pub fn language_of(language_id: &str, uri: &Uri) -> Language {
    let by_id = match language_id.to_ascii_lowercase().as_str() {
        "infchesspro" => Some(Language::InfChessPro),
        "finvara" => Some(Language::Finvara),
        other => Language::from_name(other),
    };
    by_id.unwrap_or_else(|| {
        let path = uri.path().as_str();
        let name = path.rsplit('/').next().unwrap_or(path);
        let ext = name.rsplit_once('.').map_or("", |(_, e)| e);
        Language::from_name(ext).unwrap_or(Language::InfChessPro)
    })
}

/// What the server offers, announced at `initialize`.
pub fn capabilities() -> ServerCapabilities {
    ServerCapabilities {
        text_document_sync: Some(TextDocumentSyncCapability::Kind(TextDocumentSyncKind::FULL)),
        hover_provider: Some(HoverProviderCapability::Simple(true)),
        completion_provider: Some(CompletionOptions {
            trigger_characters: Some(vec!["?".into(), "!".into(), "=".into(), "%".into()]),
            ..CompletionOptions::default()
        }),
        definition_provider: Some(OneOf::Left(true)),
        references_provider: Some(OneOf::Left(true)),
        rename_provider: Some(OneOf::Right(RenameOptions {
            prepare_provider: Some(true),
            work_done_progress_options: WorkDoneProgressOptions::default(),
        })),
        document_symbol_provider: Some(OneOf::Left(true)),
        folding_range_provider: Some(FoldingRangeProviderCapability::Simple(true)),
        semantic_tokens_provider: Some(SemanticTokensServerCapabilities::SemanticTokensOptions(
            SemanticTokensOptions {
                legend: answers::legend(),
                full: Some(SemanticTokensFullOptions::Bool(true)),
                range: None,
                work_done_progress_options: WorkDoneProgressOptions::default(),
            },
        )),
        code_action_provider: Some(CodeActionProviderCapability::Options(CodeActionOptions {
            code_action_kinds: Some(vec![
                CodeActionKind::QUICKFIX,
                CodeActionKind::REFACTOR_REWRITE,
            ]),
            ..CodeActionOptions::default()
        })),
        document_formatting_provider: Some(OneOf::Left(true)),
        ..ServerCapabilities::default()
    }
}

/// A failure of the connection itself (the client went away mid-message,
/// a malformed message): the server cannot go on.
pub type Error = Box<dyn std::error::Error + Send + Sync>;

/// Runs the server on `connection` until the client says `exit` (after
/// `shutdown`) or the connection closes. Errors: the protocol broken
/// before initialisation ended, or a message that cannot be sent.
pub fn serve(connection: &Connection) -> Result<(), Error> {
    let server = serde_json::json!({
        "capabilities": capabilities(),
        "serverInfo": ServerInfo {
            name: "icp2c".into(),
            version: Some(env!("CARGO_PKG_VERSION").into()),
        },
    });
    let (id, params) = connection.initialize_start()?;
    let _: InitializeParams = serde_json::from_value(params).unwrap_or_default();
    connection.initialize_finish(id, server)?;

    let (jobs, queue) = mpsc::channel::<Job>();
    let publisher = connection.sender.clone();
    let worker = std::thread::Builder::new()
        .name("diagnostics".into())
        .spawn(move || diagnostics_worker(&queue, &publisher))?;
    let mut documents = Documents::new();
    for message in &connection.receiver {
        match message {
            Message::Request(request) => {
                if connection.handle_shutdown(&request)? {
                    break;
                }
                let response = answer(&documents, request);
                connection.sender.send(Message::Response(response))?;
            }
            Message::Notification(notification) => {
                if let Some(job) = notice(&mut documents, notification) {
                    jobs.send(job)?;
                }
            }
            Message::Response(_) => {}
        }
    }
    drop(jobs);
    let _ = worker.join();
    Ok(())
}

/// A document whose diagnostics are due: its text, or `None` once closed
/// (its diagnostics are then cleared).
struct Job {
    uri: Uri,
    version: Option<i32>,
    language: Language,
    /// The text and its lines.
    text: Option<(Arc<str>, Arc<LineIndex>)>,
    /// What is worked out of the document's text.
    analysis: Arc<Analysis>,
}

/// Takes the documents whose text changed, waits until no change has come
/// for [`DEBOUNCE`], then checks the latest text of each and publishes
/// every diagnostic.
fn diagnostics_worker(queue: &mpsc::Receiver<Job>, publisher: &crossbeam_channel::Sender<Message>) {
    let mut pending: HashMap<String, Job> = HashMap::new();
    loop {
        let next = if pending.is_empty() {
            queue
                .recv()
                .map_err(|_| mpsc::RecvTimeoutError::Disconnected)
        } else {
            queue.recv_timeout(DEBOUNCE)
        };
        match next {
            Ok(job) => {
                pending.insert(job.uri.as_str().to_string(), job);
                continue;
            }
            Err(mpsc::RecvTimeoutError::Timeout) => {}
            Err(mpsc::RecvTimeoutError::Disconnected) if pending.is_empty() => return,
            Err(mpsc::RecvTimeoutError::Disconnected) => {}
        }
        for (_, job) in pending.drain() {
            let uri = job.uri.clone();
            let diagnostics = match &job.text {
                Some((text, index)) => {
                    let found = job
                        .analysis
                        .found
                        .get_or_init(|| answers::found(job.language, text));
                    answers::diagnostics(found, text, index, &uri)
                }
                None => Vec::new(),
            };
            let params = PublishDiagnosticsParams::new(uri, diagnostics, job.version);
            let note = Notification::new(PublishDiagnostics::METHOD.into(), params);
            if publisher.send(Message::Notification(note)).is_err() {
                return;
            }
            // The outline, for the requests to come, on a thread of its
            // own: the next change's diagnostics must not wait for it.
            if let Some((text, _)) = job.text {
                let (analysis, language) = (job.analysis, job.language);
                std::thread::spawn(move || {
                    analysis.outline.get_or_init(|| language.outline(&text));
                });
            }
        }
    }
}

/// Keeps `documents` in step with an open, change or close notification;
/// gives the diagnostics job it calls for.
fn notice(documents: &mut Documents, notification: Notification) -> Option<Job> {
    match notification.method.as_str() {
        DidOpenTextDocument::METHOD => {
            let params: lsp_types::DidOpenTextDocumentParams =
                notification.extract(DidOpenTextDocument::METHOD).ok()?;
            let item = params.text_document;
            let language = language_of(&item.language_id, &item.uri);
            let document = Document::new(language, item.text, item.version);
            let job = job(&item.uri, &document);
            documents.insert(item.uri.as_str().to_string(), document);
            Some(job)
        }
        DidChangeTextDocument::METHOD => {
            let params: lsp_types::DidChangeTextDocumentParams =
                notification.extract(DidChangeTextDocument::METHOD).ok()?;
            let uri = params.text_document.uri;
            let language = documents.get(uri.as_str())?.language;
            // Full synchronisation: the last change is the whole text.
            let text = params.content_changes.into_iter().last()?.text;
            let document = Document::new(language, text, params.text_document.version);
            let job = job(&uri, &document);
            documents.insert(uri.as_str().to_string(), document);
            Some(job)
        }
        DidCloseTextDocument::METHOD => {
            let params: lsp_types::DidCloseTextDocumentParams =
                notification.extract(DidCloseTextDocument::METHOD).ok()?;
            let document = documents.remove(params.text_document.uri.as_str())?;
            Some(Job {
                uri: params.text_document.uri,
                version: None,
                language: document.language,
                text: None,
                analysis: Arc::default(),
            })
        }
        _ => None,
    }
}

fn job(uri: &Uri, document: &Document) -> Job {
    Job {
        uri: uri.clone(),
        version: Some(document.version),
        language: document.language,
        text: Some((document.text.clone(), document.index.clone())),
        analysis: document.analysis.clone(),
    }
}

/// The response to `request`.
fn answer(documents: &Documents, request: Request) -> Response {
    let id = request.id.clone();
    match answers::answer(documents, request) {
        Ok(result) => Response::new_ok(id, result),
        Err(answers::Refusal::Unknown(method)) => Response::new_err(
            id,
            ErrorCode::MethodNotFound as i32,
            format!("icp2c lsp does not answer {method}"),
        ),
        Err(answers::Refusal::BadParams(why)) => {
            Response::new_err(id, ErrorCode::InvalidParams as i32, why)
        }
        Err(answers::Refusal::Failed(why)) => {
            Response::new_err(id, ErrorCode::RequestFailed as i32, why)
        }
    }
}
