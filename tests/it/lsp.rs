//! `icp2c lsp` in process: the server's loop (`icp2c::lsp::serve`) on an
//! in-memory connection, driven as an editor drives it (docs/editors.md).
//! The same server through a real client library, `pytest-lsp`, is
//! `tests/lsp/`, which `.ci/run` runs.

use icp2c::driver::{self, Language};
use lsp_server::{Connection, Message, Notification, Request, RequestId, Response};
use serde_json::{Value, json};
use std::time::Duration;

/// A client on one end of an in-memory connection, the server on the
/// other, on its own thread.
struct Client {
    connection: Connection,
    server: Option<std::thread::JoinHandle<()>>,
    next_id: i32,
}

impl Client {
    fn start() -> Client {
        let (server, connection) = Connection::memory();
        let server = std::thread::spawn(move || icp2c::lsp::serve(&server).expect("serve"));
        let mut client = Client {
            connection,
            server: Some(server),
            next_id: 0,
        };
        let answer = client.request("initialize", json!({ "capabilities": {} }));
        assert!(
            answer["capabilities"]["hoverProvider"] == json!(true),
            "{answer}"
        );
        client.notify("initialized", json!({}));
        client
    }

    fn notify(&self, method: &str, params: Value) {
        let note = Notification::new(method.to_string(), params);
        self.connection
            .sender
            .send(Message::Notification(note))
            .unwrap();
    }

    /// The response to a request, or its error as `Err(message)`.
    fn try_request(&mut self, method: &str, params: Value) -> Result<Value, String> {
        self.next_id += 1;
        let id = RequestId::from(self.next_id);
        let request = Request::new(id.clone(), method.to_string(), params);
        self.connection
            .sender
            .send(Message::Request(request))
            .unwrap();
        loop {
            match self.receive() {
                Message::Response(Response {
                    id: got,
                    response_result,
                }) if got == id => return response_result.map_err(|e| e.message),
                _ => continue,
            }
        }
    }

    fn request(&mut self, method: &str, params: Value) -> Value {
        self.try_request(method, params)
            .unwrap_or_else(|e| panic!("{method}: {e}"))
    }

    fn receive(&self) -> Message {
        self.connection
            .receiver
            .recv_timeout(Duration::from_secs(30))
            .expect("the server answers within 30 s")
    }

    /// The diagnostics published for `uri` at `version` (earlier versions'
    /// are skipped).
    fn diagnostics(&self, uri: &str, version: Option<i64>) -> Vec<Value> {
        loop {
            if let Message::Notification(n) = self.receive()
                && n.method == "textDocument/publishDiagnostics"
                && n.params["uri"] == uri
                && n.params["version"].as_i64() == version
            {
                return n.params["diagnostics"].as_array().unwrap().clone();
            }
        }
    }

    fn open(&self, uri: &str, language_id: &str, text: &str) {
        self.notify(
            "textDocument/didOpen",
            json!({ "textDocument": {
                "uri": uri, "languageId": language_id, "version": 1, "text": text } }),
        );
    }

    fn change(&self, uri: &str, version: i64, text: &str) {
        self.notify(
            "textDocument/didChange",
            json!({ "textDocument": { "uri": uri, "version": version },
                    "contentChanges": [{ "text": text }] }),
        );
    }
}

impl Drop for Client {
    fn drop(&mut self) {
        if std::thread::panicking() {
            return;
        }
        let _ = self.request("shutdown", Value::Null);
        self.notify("exit", Value::Null);
        if let Some(server) = self.server.take() {
            server.join().expect("the server ends after exit");
        }
    }
}

fn at(uri: &str, line: u32, character: u32) -> Value {
    json!({ "textDocument": { "uri": uri }, "position": { "line": line, "character": character } })
}

#[test]
fn diagnostics_say_what_the_command_line_says_and_go_when_mended() {
    let mut c = Client::start();
    let uri = "file:///w/prog.icp";
    let broken = "1. a=R0,0\n2. a;0,1?9\n";
    c.open(uri, "infchesspro", broken);
    let found = c.diagnostics(uri, Some(1));
    let cli = driver::check(Language::InfChessPro, broken).unwrap_err();
    assert_eq!(found.len(), cli.len());
    assert!(
        found[0]["message"]
            .as_str()
            .unwrap()
            .starts_with(&cli[0].message),
        "{found:?}"
    );
    assert_eq!(
        found[0]["range"]["start"],
        json!({ "line": 1, "character": 9 })
    );
    assert_eq!(found[0]["severity"], 1);
    c.change(uri, 2, "1. a=R0,0\n2. a;0,1?1\n");
    assert_eq!(c.diagnostics(uri, Some(2)), Vec::<Value>::new());
    // Closing clears them.
    c.notify(
        "textDocument/didClose",
        json!({ "textDocument": { "uri": uri } }),
    );
    assert_eq!(c.diagnostics(uri, None), Vec::<Value>::new());
    let error = c
        .try_request("textDocument/hover", at(uri, 0, 0))
        .unwrap_err();
    assert!(error.contains("not open"), "{error}");
}

#[test]
fn a_burst_of_changes_is_checked_once_typing_pauses() {
    let c = Client::start();
    let uri = "file:///w/burst.icp";
    c.open(uri, "infchesspro", "1. ^\n");
    c.diagnostics(uri, Some(1));
    for version in 2..=20 {
        c.change(uri, version, &format!("1. ^?{version}\n"));
    }
    // Only the last text's diagnostics matter; the ones before it were
    // dropped (or, on a machine stalled for the debounce, a few).
    let mut published = 0;
    let last = loop {
        if let Message::Notification(n) = c.receive()
            && n.method == "textDocument/publishDiagnostics"
        {
            published += 1;
            if n.params["version"] == 20 {
                break n.params["diagnostics"].clone();
            }
        }
    };
    assert!(published < 10, "{published} publications for 19 changes");
    assert!(
        last[0]["message"]
            .as_str()
            .unwrap()
            .contains("no statement is labelled 20"),
        "{last}"
    );
}

#[test]
fn ranges_count_utf16_units() {
    let mut c = Client::start();
    let uri = "file:///w/wide.icp";
    // 𝄞 is two UTF-16 units (four bytes).
    c.open(uri, "infchesspro", "1. \"é𝄞x\n2. 𝄞x=R0,0\n");
    let found = c.diagnostics(uri, Some(1));
    assert_eq!(
        found[0]["range"],
        json!({ "start": { "line": 1, "character": 3 }, "end": { "line": 1, "character": 5 } })
    );
    let tokens = c.request(
        "textDocument/semanticTokens/full",
        json!({ "textDocument": { "uri": uri } }),
    );
    // Label `1` at 0; `"` at 3 (keyword); the text at 4, 4 units long
    // (é 1, 𝄞 2, x 1).
    let data: Vec<u64> = serde_json::from_value(tokens["data"].clone()).unwrap();
    assert_eq!(&data[..15], &[0, 0, 1, 2, 1, 0, 3, 1, 1, 0, 0, 1, 4, 7, 0]);
}

#[test]
fn labels_are_found_renamed_and_refused_as_the_order_of_labels_demands() {
    let mut c = Client::start();
    let uri = "file:///w/jumps.icp";
    let text = "1. a=R0,0\n2. a;0,1?2!3\n3. %a\n";
    c.open(uri, "infchesspro", text);
    c.diagnostics(uri, Some(1));
    // From the jump `?2` to the label `2.`.
    let found = c.request("textDocument/definition", at(uri, 1, 9));
    assert_eq!(
        found["range"]["start"],
        json!({ "line": 1, "character": 0 })
    );
    let uses = c.request(
        "textDocument/references",
        json!({ "textDocument": { "uri": uri }, "position": { "line": 1, "character": 0 },
                "context": { "includeDeclaration": true } }),
    );
    assert_eq!(uses.as_array().unwrap().len(), 2, "{uses}");
    let edit = c.request(
        "textDocument/rename",
        json!({ "textDocument": { "uri": uri }, "position": { "line": 2, "character": 0 },
                "newName": "7" }),
    );
    let edits = edit["changes"][uri].as_array().unwrap();
    assert_eq!(edits.len(), 2, "{edit}");
    assert!(edits.iter().all(|e| e["newText"] == "7"));
    // 1 < 2 < 3: renaming 3 to 2 breaks the order.
    let refused = c
        .try_request(
            "textDocument/rename",
            json!({ "textDocument": { "uri": uri }, "position": { "line": 2, "character": 0 },
                    "newName": "2" }),
        )
        .unwrap_err();
    assert!(refused.contains("would break the program"), "{refused}");
    let refused = c
        .try_request(
            "textDocument/rename",
            json!({ "textDocument": { "uri": uri }, "position": { "line": 2, "character": 0 },
                    "newName": "x" }),
        )
        .unwrap_err();
    assert!(refused.contains("cannot name a label"), "{refused}");
    // A jump read from input: nothing may be renamed.
    let star = "file:///w/star.icp";
    c.open(star, "infchesspro", "1. ^?*\n5. \"five\n");
    let refused = c
        .try_request("textDocument/prepareRename", at(star, 1, 0))
        .unwrap_err();
    assert!(refused.contains("read from input"), "{refused}");
}

#[test]
fn quick_fixes_renumbering_and_formatting() {
    let mut c = Client::start();
    let uri = "file:///w/fix.icp";
    c.open(uri, "infchesspro", "1. ^\n3 ^\n");
    c.diagnostics(uri, Some(1));
    let range =
        json!({ "start": { "line": 1, "character": 0 }, "end": { "line": 1, "character": 3 } });
    let actions = c.request(
        "textDocument/codeAction",
        json!({ "textDocument": { "uri": uri }, "range": range, "context": { "diagnostics": [] } }),
    );
    let fix = &actions[0];
    assert_eq!(fix["kind"], "quickfix");
    let edit = &fix["edit"]["changes"][uri][0];
    assert_eq!(edit["newText"], ".");
    assert_eq!(edit["range"]["start"], json!({ "line": 1, "character": 1 }));
    // A program with errors is not formatted.
    let refused = c
        .try_request(
            "textDocument/formatting",
            json!({ "textDocument": { "uri": uri }, "options": { "tabSize": 4, "insertSpaces": true } }),
        )
        .unwrap_err();
    assert!(refused.contains("has errors"), "{refused}");
    // Mended, it is formatted as `icp2c fmt` formats it, and renumbered.
    let text = "1.   ^\n3.^?1\n";
    c.change(uri, 2, text);
    let edits = c.request(
        "textDocument/formatting",
        json!({ "textDocument": { "uri": uri }, "options": { "tabSize": 4, "insertSpaces": true } }),
    );
    assert_eq!(
        edits[0]["newText"],
        driver::format(Language::InfChessPro, text).unwrap()
    );
    let actions = c.request(
        "textDocument/codeAction",
        json!({ "textDocument": { "uri": uri }, "range": range, "context": { "diagnostics": [] } }),
    );
    let renumber = actions
        .as_array()
        .unwrap()
        .iter()
        .find(|a| a["title"].as_str().unwrap().starts_with("Renumber"))
        .expect("a renumbering action");
    assert_eq!(
        renumber["edit"]["changes"][uri][0]["newText"],
        "10. ^\n20. ^?10\n"
    );
}

#[test]
fn every_language_answers_hover_completion_symbols_and_folds() {
    let mut c = Client::start();
    let root = crate::support::root().join("examples");
    for (name, id, needle) in [
        ("multiply.icp", "infchesspro", "docs/infchesspro.md"),
        ("krk.cheg", "cheg", "docs/cheg.md"),
        ("seed_pieces.fin", "finvara", "docs/finvara.md"),
    ] {
        let text = std::fs::read_to_string(root.join(name)).unwrap();
        let uri = format!("file:///w/{name}");
        c.open(&uri, id, &text);
        assert_eq!(c.diagnostics(&uri, Some(1)), Vec::<Value>::new(), "{name}");
        let symbols = c.request(
            "textDocument/documentSymbol",
            json!({ "textDocument": { "uri": uri } }),
        );
        assert!(
            !symbols.as_array().unwrap().is_empty(),
            "{name}: no symbols"
        );
        let items = c.request("textDocument/completion", at(&uri, 0, 0));
        assert!(
            items["items"].as_array().unwrap().len() > 5,
            "{name}: {items}"
        );
        // Some hover on the first statement line cites the reference.
        let line = text
            .lines()
            .position(|l| {
                let t = l.trim_start();
                !t.is_empty() && !t.starts_with('#') && !t.starts_with(';')
            })
            .unwrap() as u32;
        let indent = text.lines().nth(line as usize).unwrap().len()
            - text.lines().nth(line as usize).unwrap().trim_start().len();
        let hovers: Vec<String> = (0..40)
            .filter_map(|col| {
                c.request("textDocument/hover", at(&uri, line, indent as u32 + col))
                    .get("contents")
                    .map(|h| h["value"].as_str().unwrap().to_string())
            })
            .collect();
        assert!(
            hovers.iter().any(|h| h.contains(needle)),
            "{name}: no hover on line {line} cites {needle}: {hovers:?}"
        );
        let folds = c.request(
            "textDocument/foldingRange",
            json!({ "textDocument": { "uri": uri } }),
        );
        assert!(
            folds
                .as_array()
                .unwrap()
                .iter()
                .all(|f| f["kind"] == "comment"),
            "{name}: {folds}"
        );
    }
    let error = c
        .try_request("textDocument/inlayHint", json!({}))
        .unwrap_err();
    assert!(error.contains("does not answer"), "{error}");
}

#[test]
fn completions_follow_what_is_typed_and_stop_at_a_thousand() {
    let mut c = Client::start();
    let uri = "file:///w/many.icp";
    let mut text: String = (1..=3000).map(|i| format!("{i}. ^\n")).collect();
    text.push_str("3001. ^?29");
    c.open(uri, "infchesspro", &text);
    let end = at(uri, 3000, 10);
    let list = c.request("textDocument/completion", end);
    let labels: Vec<&str> = list["items"]
        .as_array()
        .unwrap()
        .iter()
        .map(|i| i["label"].as_str().unwrap())
        .collect();
    // 29, 290–299, 2900–2999 (and 3001's own label does not start so).
    assert_eq!(labels.len(), 111, "{labels:?}");
    assert!(labels.iter().all(|l| l.starts_with("29")));
    assert_eq!(list["isIncomplete"], false);
    let all = c.request("textDocument/completion", at(uri, 3000, 8));
    assert_eq!(all["items"].as_array().unwrap().len(), 1000);
    assert_eq!(all["isIncomplete"], true);
}

#[test]
fn a_thousand_diagnostics_are_published_and_the_rest_counted() {
    let c = Client::start();
    let uri = "file:///w/binary.icp";
    let text: String = (0..1500).map(|_| "\u{1}\n").collect();
    c.open(uri, "infchesspro", &text);
    let found = c.diagnostics(uri, Some(1));
    assert_eq!(found.len(), 1001);
    assert_eq!(found[1000]["severity"], 3);
    assert!(
        found[1000]["message"]
            .as_str()
            .unwrap()
            .starts_with("… and 500 more diagnostics (500 errors)"),
        "{}",
        found[1000]
    );
}
