"""End-to-end test of `icp2c lsp`: the server run as an editor runs it, and
driven by a real client library (pytest-lsp, on pygls), over standard
input and output. Every expectation comes from somewhere else than the
server: the example files, `icp2c --check` and `icp2c fmt` run on the same
text, the references under docs/, or the protocol's own rules."""

import asyncio
import re
import subprocess

import pytest
from lsprotocol import types
from pygls.exceptions import JsonRpcException

from conftest import REPO, SERVER

LANGUAGE_ID = {"icp": "infchesspro", "fin": "finvara", "cheg": "cheg"}
REQUEST_FAILED = -32803  # LSP's ErrorCodes.RequestFailed

# --------------------------------------------------------------------------
# Text: positions in UTF-16 code units, as the protocol counts them.


def example(name: str) -> str:
    return (REPO / "examples" / name).read_text(encoding="utf-8")


def utf16_len(s: str) -> int:
    return len(s.encode("utf-16-le")) // 2


def position_of(text: str, index: int) -> types.Position:
    """The protocol position of character `index` of `text`."""
    line_start = text.rfind("\n", 0, index) + 1
    return types.Position(
        line=text.count("\n", 0, index),
        character=utf16_len(text[line_start:index]),
    )


def index_of(text: str, position: types.Position) -> int:
    """The character index of a protocol position of `text` (strict: the
    position must exist)."""
    lines = text.split("\n")
    assert position.line < len(lines), position
    start = sum(len(line) + 1 for line in lines[: position.line])
    units = 0
    for i, c in enumerate(lines[position.line]):
        if units == position.character:
            return start + i
        units += utf16_len(c)
        assert units <= position.character, f"{position} splits a character"
    assert units == position.character, f"{position} is past the end of its line"
    return start + len(lines[position.line])


def at(text: str, needle: str, nth: int = 0, plus: int = 0) -> types.Position:
    """The position of the `nth` occurrence of `needle` in `text`, `plus`
    characters on."""
    index = -1
    for _ in range(nth + 1):
        index = text.index(needle, index + 1)
    return position_of(text, index + plus)


def span(text: str, needle: str, nth: int = 0, plus: int = 0, length=None) -> types.Range:
    """The range of `needle` (or of `length` characters from `plus` in it)."""
    start = at(text, needle, nth, plus)
    chars = len(needle) - plus if length is None else length
    begin = index_of(text, start)
    return types.Range(start=start, end=position_of(text, begin + chars))


def line_range(text: str, line: int) -> types.Range:
    content = text.split("\n")[line]
    return types.Range(
        start=types.Position(line=line, character=0),
        end=types.Position(line=line, character=utf16_len(content)),
    )


def apply_edits(text: str, edits) -> str:
    """`text` with the protocol's text edits made (non-overlapping, ranges
    in the original text)."""
    spans = sorted(
        ((index_of(text, e.range.start), index_of(text, e.range.end), e.new_text) for e in edits),
        reverse=True,
    )
    for (start, end, _), (next_start, _, _) in zip(spans[1:], spans):
        assert end <= next_start, f"overlapping edits: {edits}"
    for start, end, new in spans:
        text = text[:start] + new + text[end:]
    return text


def lines_with(text: str, pattern: str) -> list[int]:
    return [i for i, line in enumerate(text.split("\n")) if re.search(pattern, line)]


# --------------------------------------------------------------------------
# The command line, as the oracle.


def icp2c(*args: str, stdin: str) -> subprocess.CompletedProcess:
    """`icp2c ARGS` on `stdin`; its output as written (line ends kept)."""
    run = subprocess.run(
        [str(SERVER), *args], input=stdin.encode(), capture_output=True, timeout=60
    )
    run.stdout, run.stderr = run.stdout.decode(), run.stderr.decode()
    return run


def cli_diagnostic(lang: str, text: str) -> dict:
    """The first diagnostic `icp2c --check` prints for `text`: headline,
    place (from 0), width of its carets, label, notes."""
    run = icp2c("--check", "--lang", lang, "-", stdin=text)
    assert run.returncode == 2, f"icp2c --check accepted the program:\n{run.stderr}"
    lines = run.stderr.splitlines()
    head = next(i for i, line in enumerate(lines) if line.startswith("error: "))
    where = re.search(r"┌─ <stdin>:(\d+):(\d+)$", lines[head + 1])
    assert where, lines[head + 1]
    carets = next(
        m for line in lines[head + 2 :] if (m := re.match(r"^\s*│\s*(\^+) ?(.*)$", line))
    )
    notes = []
    for line in lines[lines.index(carets.string) + 1 :]:
        if not line.strip():
            break
        if note := re.match(r"^\s*= (.*)$", line):
            notes.append(note[1])
    return {
        "headline": lines[head][len("error: ") :],
        "line": int(where[1]) - 1,
        "column": int(where[2]) - 1,
        "width": len(carets[1]),
        "label": carets[2],
        "notes": notes,
    }


def cli_accepts(lang: str, text: str) -> bool:
    return icp2c("--check", "--lang", lang, "-", stdin=text).returncode == 0


def cli_format(lang: str, text: str, *options: str) -> str:
    run = icp2c("fmt", "--lang", lang, *options, "-", stdin=text)
    assert run.returncode == 0, run.stderr
    return run.stdout


# --------------------------------------------------------------------------
# The client side.


def uri_of(name: str) -> str:
    return (REPO / "examples" / name).as_uri()


def doc(uri: str) -> types.TextDocumentIdentifier:
    return types.TextDocumentIdentifier(uri=uri)


def open_document(client, uri: str, lang: str, text: str, version: int = 1):
    client.text_document_did_open(
        types.DidOpenTextDocumentParams(
            text_document=types.TextDocumentItem(
                uri=uri, language_id=LANGUAGE_ID[lang], version=version, text=text
            )
        )
    )


def change_document(client, uri: str, version: int, text: str):
    client.text_document_did_change(
        types.DidChangeTextDocumentParams(
            text_document=types.VersionedTextDocumentIdentifier(uri=uri, version=version),
            content_changes=[types.TextDocumentContentChangeWholeDocument(text=text)],
        )
    )


async def diagnostics_of(client, uri: str, version: int, timeout: float = 10.0):
    """The diagnostics the server publishes for `version` of `uri`."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    while True:
        for params in client.published:
            if params.uri == uri and params.version == version:
                return list(params.diagnostics)
        if loop.time() > deadline:
            seen = [(p.uri, p.version) for p in client.published]
            raise AssertionError(f"no diagnostics for {uri} version {version}; got {seen}")
        await asyncio.sleep(0.02)


def assert_matches_cli(diagnostic: types.Diagnostic, lang: str, text: str):
    """The diagnostic is the one `icp2c --check` prints first: the same
    place and width, its headline and label as the message's first line,
    its notes below."""
    cli = cli_diagnostic(lang, text)
    start = types.Position(line=cli["line"], character=cli["column"])
    end = types.Position(line=cli["line"], character=cli["column"] + cli["width"])
    assert diagnostic.range == types.Range(start=start, end=end)
    first_line = cli["headline"] + (f" ({cli['label']})" if cli["label"] else "")
    assert diagnostic.message.split("\n")[0] == first_line
    assert diagnostic.message == "\n".join([first_line, *cli["notes"]])
    assert diagnostic.severity == types.DiagnosticSeverity.Error
    assert diagnostic.source == "icp2c"


def edits_for(edit: types.WorkspaceEdit, uri: str):
    assert edit is not None and edit.changes is not None, edit
    assert set(edit.changes) == {uri}, edit.changes.keys()
    return edit.changes[uri]


def decode_tokens(client, data) -> dict:
    """Semantic tokens, from the protocol's relative encoding, by their
    (line, start): (length, type, modifiers) named by the server's legend."""
    legend = client.initialize_result.capabilities.semantic_tokens_provider.legend
    assert len(data) % 5 == 0
    tokens = {}
    line = start = 0
    for i in range(0, len(data), 5):
        delta_line, delta_start, length, kind, bits = data[i : i + 5]
        line += delta_line
        start = start + delta_start if delta_line == 0 else delta_start
        modifiers = {m for b, m in enumerate(legend.token_modifiers) if bits >> b & 1}
        assert (line, start) not in tokens
        tokens[(line, start)] = (length, legend.token_types[kind], modifiers)
    return tokens


def assert_well_formed(symbols):
    """What VS Code demands of document symbols: each name's range within
    the symbol's range."""
    key = lambda p: (p.line, p.character)
    for symbol in symbols:
        assert key(symbol.range.start) <= key(symbol.selection_range.start), symbol
        assert key(symbol.selection_range.end) <= key(symbol.range.end), symbol


def reference_section(markdown: str, page: str) -> str:
    """The section a hover cites (`docs/<page>.md §N`), checked to be a
    heading of that page."""
    cited = re.search(rf"docs/{page}\.md (§[0-9.]+)", markdown)
    assert cited, f"no citation of docs/{page}.md in {markdown!r}"
    headings = (REPO / "docs" / f"{page}.md").read_text(encoding="utf-8")
    assert re.search(rf"^#+ {re.escape(cited[1])} ", headings, re.M), cited[1]
    return cited[1]


def table_row(page: str, first_cell_start: str) -> list[str]:
    """The cells of the row of a table of docs/<page>.md whose first cell
    starts with `first_cell_start`."""
    text = (REPO / "docs" / f"{page}.md").read_text(encoding="utf-8")
    for line in text.splitlines():
        if line.startswith("| " + first_cell_start):
            return [c.strip() for c in line.strip().strip("|").split("|")]
    raise AssertionError(f"no row {first_cell_start!r} in docs/{page}.md")


async def refusal(request) -> JsonRpcException:
    with pytest.raises(JsonRpcException) as refused:
        await request
    assert refused.value.code == REQUEST_FAILED, refused.value
    return refused.value


# ==========================================================================
# InfChessPro: examples/multiply.icp


MULTIPLY = example("multiply.icp")
ICP = uri_of("multiply.icp")


def icp_labels(text: str) -> list[str]:
    return [m[1] for m in re.finditer(r"^\s*(\d+)\.", text, re.M)]


async def test_icp_diagnostics_follow_the_text(client):
    broken = MULTIPLY.replace("15. ^?11", "15. ^?16")
    assert broken != MULTIPLY
    open_document(client, ICP, "icp", broken, version=1)
    found = await diagnostics_of(client, ICP, 1)
    assert len(found) == 1, found
    assert_matches_cli(found[0], "icp", broken)
    assert found[0].range == span(broken, "?16", plus=1)

    change_document(client, ICP, 2, MULTIPLY)
    assert await diagnostics_of(client, ICP, 2) == []

    # Closed: its diagnostics are cleared, with no version.
    change_document(client, ICP, 3, broken)
    assert len(await diagnostics_of(client, ICP, 3)) == 1
    client.text_document_did_close(types.DidCloseTextDocumentParams(text_document=doc(ICP)))
    assert await diagnostics_of(client, ICP, None) == []


async def test_diagnostics_wait_for_typing_to_pause(client):
    """Two changes sent together are checked once, at the latest text."""
    open_document(client, ICP, "icp", MULTIPLY, version=1)
    assert await diagnostics_of(client, ICP, 1) == []
    change_document(client, ICP, 2, MULTIPLY.replace("40. %out", "40 %out"))
    change_document(client, ICP, 3, MULTIPLY.replace("15. ^?11", "15. ^?17"))
    found = await diagnostics_of(client, ICP, 3)
    assert [d.message.split("\n")[0] for d in found] == [
        "no statement is labelled 17 (unknown jump target)"
    ]
    assert [p.version for p in client.published if p.uri == ICP] == [1, 3]


async def test_icp_definition_of_a_jump_is_its_label(client):
    open_document(client, ICP, "icp", MULTIPLY)
    found = await client.text_document_definition_async(
        types.DefinitionParams(text_document=doc(ICP), position=at(MULTIPLY, "15. ^?11", plus=6))
    )
    assert found == types.Location(uri=ICP, range=span(MULTIPLY, "11. b", length=2))


async def test_icp_references_of_a_label(client):
    open_document(client, ICP, "icp", MULTIPLY)
    definition = span(MULTIPLY, "30. t", length=2)
    uses = [span(MULTIPLY, "!30", plus=1), span(MULTIPLY, "?30", plus=1)]
    for include, expected in [(True, [definition, *uses]), (False, uses)]:
        found = await client.text_document_references_async(
            types.ReferenceParams(
                text_document=doc(ICP),
                position=at(MULTIPLY, "31. b;0,1?30", plus=10),
                context=types.ReferenceContext(include_declaration=include),
            )
        )
        key = lambda r: (r.start.line, r.start.character)
        assert sorted((loc.range for loc in found), key=key) == sorted(expected, key=key)
        assert {loc.uri for loc in found} == {ICP}


async def test_icp_rename_a_label_and_its_jumps(client):
    open_document(client, ICP, "icp", MULTIPLY)
    jump = at(MULTIPLY, "!30", plus=1)
    prepared = await client.text_document_prepare_rename_async(
        types.PrepareRenameParams(text_document=doc(ICP), position=jump)
    )
    assert prepared.range == span(MULTIPLY, "!30", plus=1)
    assert prepared.placeholder == "30"

    edit = await client.text_document_rename_async(
        types.RenameParams(text_document=doc(ICP), position=jump, new_name="20")
    )
    renamed = apply_edits(MULTIPLY, edits_for(edit, ICP))
    expected = (
        MULTIPLY.replace("30. t", "20. t").replace("!30", "!20").replace("?30", "?20")
    )
    assert renamed == expected
    assert cli_accepts("icp", renamed)


async def test_icp_rename_refused_when_labels_would_fall_out_of_order(client):
    open_document(client, ICP, "icp", MULTIPLY)
    out_of_order = (
        MULTIPLY.replace("30. t", "50. t").replace("!30", "!50").replace("?30", "?50")
    )
    headline = cli_diagnostic("icp", out_of_order)["headline"]
    refused = await refusal(
        client.text_document_rename_async(
            types.RenameParams(
                text_document=doc(ICP), position=at(MULTIPLY, "30. t"), new_name="50"
            )
        )
    )
    assert refused.message == f"renaming label 30 to 50 would break the program: {headline}"


async def test_icp_rename_refused_when_a_jump_reads_its_target(client):
    starred = MULTIPLY.replace("15. ^?11", "15. ^?*")
    assert cli_accepts("icp", starred)
    open_document(client, ICP, "icp", starred)
    why = (
        "statement 15 (line 22) jumps to a label read from input: "
        "renaming labels would silently change where it goes"
    )
    position = at(starred, "30. t")
    prepared = await refusal(
        client.text_document_prepare_rename_async(
            types.PrepareRenameParams(text_document=doc(ICP), position=position)
        )
    )
    assert prepared.message == why
    renamed = await refusal(
        client.text_document_rename_async(
            types.RenameParams(text_document=doc(ICP), position=position, new_name="20")
        )
    )
    assert renamed.message == why


async def test_icp_hover_quotes_the_reference(client):
    open_document(client, ICP, "icp", MULTIPLY)
    hover = await client.text_document_hover_async(
        types.HoverParams(text_document=doc(ICP), position=at(MULTIPLY, "%out", plus=2))
    )
    assert hover.contents.kind == types.MarkupKind.Markdown
    assert hover.range == span(MULTIPLY, "%out")
    form, does, fails = table_row("infchesspro", "`%name`")
    assert form in hover.contents.value
    assert does in hover.contents.value
    assert fails in hover.contents.value
    assert reference_section(hover.contents.value, "infchesspro") == "§4.7"

    jump = await client.text_document_hover_async(
        types.HoverParams(text_document=doc(ICP), position=at(MULTIPLY, "^?11", plus=2))
    )
    line = MULTIPLY.split("\n").index("11. b;0,-1!30") + 1
    assert f"jump to statement 11 (line {line})" in jump.contents.value
    assert reference_section(jump.contents.value, "infchesspro") == "§5"


async def test_icp_completion_offers_commands_labels_and_pieces(client):
    open_document(client, ICP, "icp", MULTIPLY)
    found = await client.text_document_completion_async(
        types.CompletionParams(text_document=doc(ICP), position=at(MULTIPLY, "^?11", plus=2))
    )
    items = found.items if isinstance(found, types.CompletionList) else found
    labels = {(i.label, i.kind) for i in items}
    K = types.CompletionItemKind
    for label in icp_labels(MULTIPLY):
        assert (label, K.Reference) in labels, label
    for form in ["name=Lr,c", "r1,c1,r2,c2", "name,r,c", "name;dr,dc", "^", '"text', "%name"]:
        assert (form, K.Keyword) in labels, form
    for letter in "KQRBNPkqrbnp":
        assert (letter, K.Class) in labels, letter
    for name in ["wall", "lid", "a", "b", "t", "out"]:
        assert (name, K.Variable) in labels, name


async def test_icp_document_symbols_are_the_labels(client):
    open_document(client, ICP, "icp", MULTIPLY)
    symbols = await client.text_document_document_symbol_async(
        types.DocumentSymbolParams(text_document=doc(ICP))
    )
    assert [s.name for s in symbols] == icp_labels(MULTIPLY)
    assert_well_formed(symbols)
    assert {s.kind for s in symbols} == {types.SymbolKind.Key}
    ten = next(s for s in symbols if s.name == "10")
    line = MULTIPLY.split("\n").index("10. a;0,-1!40")
    assert ten.selection_range == span(MULTIPLY, "10. a", length=2)
    assert ten.range == line_range(MULTIPLY, line)
    assert ten.detail == "10. a;0,-1!40"


async def test_icp_semantic_tokens(client):
    open_document(client, ICP, "icp", MULTIPLY)
    result = await client.text_document_semantic_tokens_full_async(
        types.SemanticTokensParams(text_document=doc(ICP))
    )
    tokens = decode_tokens(client, result.data)
    first = MULTIPLY.split("\n")[0]

    def token(needle, plus=0):
        p = at(MULTIPLY, needle, plus=plus)
        return tokens.get((p.line, p.character))

    assert token(first) == (utf16_len(first), "comment", set())
    assert token("15. ^?11") == (2, "function", {"declaration"})
    assert token("^?11") == (1, "keyword", set())
    assert token("^?11", plus=1) == (1, "operator", set())
    assert token("^?11", plus=2) == (2, "function", set())
    assert token("wall=P0") == (4, "variable", set())
    assert token("wall=P0", plus=4) == (1, "operator", set())
    assert token("wall=P0", plus=5) == (1, "type", set())
    assert token("wall=P0,-1", plus=8) == (2, "number", set())
    assert token("%out") == (1, "keyword", set())
    assert token("%out", plus=1) == (3, "variable", set())


async def test_icp_folding_of_the_comment_block(client):
    open_document(client, ICP, "icp", MULTIPLY)
    folds = await client.text_document_folding_range_async(
        types.FoldingRangeParams(text_document=doc(ICP))
    )
    comments = lines_with(MULTIPLY, r"^#")
    # The header comment block; the single comment lines further down fold not.
    assert comments[:8] == list(range(8)) and 8 not in comments
    assert [(f.start_line, f.end_line, f.kind) for f in folds] == [
        (0, 7, types.FoldingRangeKind.Comment)
    ]


async def test_icp_quick_fix_inserts_the_dot(client):
    broken = MULTIPLY.replace("3. wall=P2,-1", "3 wall=P2,-1")
    open_document(client, ICP, "icp", broken)
    (diagnostic,) = await diagnostics_of(client, ICP, 1)
    assert_matches_cli(diagnostic, "icp", broken)
    actions = await client.text_document_code_action_async(
        types.CodeActionParams(
            text_document=doc(ICP),
            range=diagnostic.range,
            context=types.CodeActionContext(diagnostics=[diagnostic]),
        )
    )
    fixes = [a for a in actions if a.title == "Insert `.` after the label"]
    assert len(fixes) == 1, [a.title for a in actions]
    fix = fixes[0]
    assert fix.kind == types.CodeActionKind.QuickFix
    assert list(fix.diagnostics) == [diagnostic]
    fixed = apply_edits(broken, edits_for(fix.edit, ICP))
    assert fixed == MULTIPLY

    change_document(client, ICP, 2, fixed)
    assert await diagnostics_of(client, ICP, 2) == []


async def test_icp_renumber_action(client):
    open_document(client, ICP, "icp", MULTIPLY)
    actions = await client.text_document_code_action_async(
        types.CodeActionParams(
            text_document=doc(ICP),
            range=line_range(MULTIPLY, 8),
            context=types.CodeActionContext(diagnostics=[]),
        )
    )
    title = "Renumber the statements 10, 20, 30, … (and format)"
    (renumber,) = [a for a in actions if a.title == title]
    assert renumber.kind == types.CodeActionKind.RefactorRewrite
    renumbered = apply_edits(MULTIPLY, edits_for(renumber.edit, ICP))
    assert renumbered == cli_format("icp", MULTIPLY, "--renumber", "10,10")
    count = len(icp_labels(MULTIPLY))
    assert icp_labels(renumbered) == [str(10 * i) for i in range(1, count + 1)]


def mangle_icp(text: str) -> str:
    """Blanks where §2 allows them, which `icp2c fmt` takes away."""
    return (
        text.replace("1. wall=P0,-1", "  1.wall = P0 , -1")
        .replace("10. a;0,-1!40", "10.   a ; 0,-1 ! 40  ")
        .replace("40. %out", "40. % out")
    )


async def test_icp_formatting(client):
    unformatted = mangle_icp(MULTIPLY)
    assert unformatted != MULTIPLY and cli_accepts("icp", unformatted)
    open_document(client, ICP, "icp", unformatted)
    edits = await client.text_document_formatting_async(
        types.DocumentFormattingParams(
            text_document=doc(ICP),
            options=types.FormattingOptions(tab_size=4, insert_spaces=True),
        )
    )
    formatted = apply_edits(unformatted, edits)
    assert formatted == cli_format("icp", unformatted)
    assert formatted == MULTIPLY

    # Formatted already: nothing to change.
    change_document(client, ICP, 2, MULTIPLY)
    assert not await client.text_document_formatting_async(
        types.DocumentFormattingParams(
            text_document=doc(ICP),
            options=types.FormattingOptions(tab_size=4, insert_spaces=True),
        )
    )


async def test_icp_utf16_columns(client):
    """é is one UTF-16 unit (two bytes), 𝄞 two units (four bytes): every
    column after them on their line counts units."""
    uri = "file:///tmp/lsp-e2e/unicode.icp"
    stray = '1. "é𝄞\n2. x=K0,0 𝄞é\n'
    open_document(client, uri, "icp", stray)
    (diagnostic,) = await diagnostics_of(client, uri, 1)
    assert diagnostic.message.startswith("stray character `𝄞`")
    assert diagnostic.range == types.Range(
        start=types.Position(line=1, character=10), end=types.Position(line=1, character=12)
    )

    text = '# é𝄞 clef\n1. "é𝄞 x\n 2.  ^?1\n3.   "à𝄞 y'
    assert cli_accepts("icp", text)
    change_document(client, uri, 2, text)
    assert await diagnostics_of(client, uri, 2) == []

    result = await client.text_document_semantic_tokens_full_async(
        types.SemanticTokensParams(text_document=doc(uri))
    )
    tokens = decode_tokens(client, result.data)
    assert tokens[(0, 0)] == (10, "comment", set())  # 9 characters, 12 bytes
    assert tokens[(1, 3)] == (1, "keyword", set())
    assert tokens[(1, 4)] == (5, "string", set())  # `é𝄞 x`: 4 characters, 8 bytes

    hover = await client.text_document_hover_async(
        types.HoverParams(text_document=doc(uri), position=types.Position(line=1, character=8))
    )
    assert hover.range == types.Range(
        start=types.Position(line=1, character=3), end=types.Position(line=1, character=9)
    )

    symbols = await client.text_document_document_symbol_async(
        types.DocumentSymbolParams(text_document=doc(uri))
    )
    assert [(s.name, s.range) for s in symbols] == [
        ("1", line_range(text, 1)),
        ("2", line_range(text, 2)),
        ("3", line_range(text, 3)),
    ]
    assert symbols[0].range.end.character == 9

    # The last line holds non-ASCII text: the whole-text edit ends after it.
    edits = await client.text_document_formatting_async(
        types.DocumentFormattingParams(
            text_document=doc(uri),
            options=types.FormattingOptions(tab_size=4, insert_spaces=True),
        )
    )
    assert [e.range.end for e in edits] == [types.Position(line=3, character=11)]
    assert apply_edits(text, edits) == cli_format("icp", text)


async def test_icp_crlf_line_ends(client):
    """A `\r` before `\n` ends the line: no range covers it, and
    formatting keeps it."""
    crlf = mangle_icp(MULTIPLY).replace("\n", "\r\n")
    uri = "file:///tmp/lsp-e2e/crlf.icp"
    open_document(client, uri, "icp", crlf)
    assert await diagnostics_of(client, uri, 1) == []
    symbols = await client.text_document_document_symbol_async(
        types.DocumentSymbolParams(text_document=doc(uri))
    )
    lines = crlf.split("\n")
    for symbol in symbols:
        assert symbol.range.end.character == len(lines[symbol.range.end.line]) - 1, symbol
    result = await client.text_document_semantic_tokens_full_async(
        types.SemanticTokensParams(text_document=doc(uri))
    )
    tokens = decode_tokens(client, result.data)
    assert tokens[(0, 0)] == (len(lines[0]) - 1, "comment", set())
    edits = await client.text_document_formatting_async(
        types.DocumentFormattingParams(
            text_document=doc(uri),
            options=types.FormattingOptions(tab_size=4, insert_spaces=True),
        )
    )
    formatted = apply_edits(crlf, edits)
    assert formatted == cli_format("icp", crlf)
    assert formatted == MULTIPLY.replace("\n", "\r\n")


# ==========================================================================
# CHEG: examples/tour.cheg


TOUR = example("tour.cheg")
CHEG = uri_of("tour.cheg")


def cheg_tags(text: str) -> list[str]:
    return [m[1].upper() for m in re.finditer(r"^([A-Za-z][A-Za-z0-9]*):", text, re.M)]


def cheg_instructions() -> set[str]:
    """The mnemonics of docs/cheg.md §5.1's tables."""
    page = (REPO / "docs" / "cheg.md").read_text(encoding="utf-8")
    table = page[page.index("### §5.1 ") : page.index("### §5.2 ")]
    names = set()
    for row in re.findall(r"^\| `([^`]+)` \|", table, re.M):
        for word in row.split():
            if any(c.islower() for c in word):
                break
            names.add(word)
    return names


async def test_cheg_diagnostics_follow_the_text(client):
    broken = TOUR.replace("CONDT ISCAP,LM,CAPS", "CONDT ISCAP,LM,CAPZ")
    assert broken != TOUR
    open_document(client, CHEG, "cheg", broken)
    found = await diagnostics_of(client, CHEG, 1)
    assert len(found) == 1, found
    assert_matches_cli(found[0], "cheg", broken)
    assert found[0].range == span(broken, "CAPZ")

    change_document(client, CHEG, 2, TOUR)
    assert await diagnostics_of(client, CHEG, 2) == []


async def test_cheg_definition_of_a_tag_argument(client):
    open_document(client, CHEG, "cheg", TOUR)
    for use, definition in [("LM,CAPS", "CAPS:"), ("CONDT ISCAP", "ISCAP:")]:
        plus = use.index(definition[:-1])
        found = await client.text_document_definition_async(
            types.DefinitionParams(text_document=doc(CHEG), position=at(TOUR, use, plus=plus + 1))
        )
        assert found == types.Location(
            uri=CHEG, range=span(TOUR, definition, length=len(definition) - 1)
        ), use


async def test_cheg_references_of_a_tag(client):
    open_document(client, CHEG, "cheg", TOUR)
    found = await client.text_document_references_async(
        types.ReferenceParams(
            text_document=doc(CHEG),
            position=at(TOUR, "ISCAP:"),
            context=types.ReferenceContext(include_declaration=True),
        )
    )
    uses = [m.start() for m in re.finditer(r"\bISCAP\b", TOUR)]
    assert len(uses) == 2
    assert [loc.range for loc in found] == [
        types.Range(start=position_of(TOUR, i), end=position_of(TOUR, i + 5)) for i in uses
    ]


async def test_cheg_rename_a_tag(client):
    open_document(client, CHEG, "cheg", TOUR)
    edit = await client.text_document_rename_async(
        types.RenameParams(
            text_document=doc(CHEG), position=at(TOUR, "LM,CAPS", plus=4), new_name="TAKE"
        )
    )
    renamed = apply_edits(TOUR, edits_for(edit, CHEG))
    assert renamed == re.sub(r"\bCAPS\b", "TAKE", TOUR)
    assert renamed != TOUR and cli_accepts("cheg", renamed)

    # A name another tag has: two tags NO.
    clash = re.sub(r"\bCAPS\b", "NO", TOUR)
    headline = cli_diagnostic("cheg", clash)["headline"]
    refused = await refusal(
        client.text_document_rename_async(
            types.RenameParams(text_document=doc(CHEG), position=at(TOUR, "CAPS:"), new_name="NO")
        )
    )
    assert refused.message == f"renaming tag CAPS to NO would break the program: {headline}"


async def test_cheg_hover_quotes_the_reference(client):
    open_document(client, CHEG, "cheg", TOUR)
    hover = await client.text_document_hover_async(
        types.HoverParams(text_document=doc(CHEG), position=at(TOUR, "SELECC S,CAPT", plus=3))
    )
    assert hover.contents.kind == types.MarkupKind.Markdown
    assert hover.range == span(TOUR, "SELECC S,CAPT", length=6)
    signature, kinds, effect = table_row("cheg", "`SELECC ")
    assert signature in hover.contents.value
    assert kinds in hover.contents.value
    assert effect in hover.contents.value
    assert reference_section(hover.contents.value, "cheg") == "§5.1"


async def test_cheg_completion_offers_instructions_and_tags(client):
    open_document(client, CHEG, "cheg", TOUR)
    found = await client.text_document_completion_async(
        types.CompletionParams(text_document=doc(CHEG), position=at(TOUR, "RETURN \"T"))
    )
    items = found.items if isinstance(found, types.CompletionList) else found
    labels = {(i.label, i.kind) for i in items}
    K = types.CompletionItemKind
    instructions = cheg_instructions()
    assert len(instructions) > 60 and {"PLAY", "SELECC", "JUMP#<"} <= instructions
    for name in instructions:
        assert (name, K.Keyword) in labels, name
    for tag in cheg_tags(TOUR):
        assert (tag, K.Reference) in labels, tag
    for condition in ["EMPTY", "CAPT", "KING"]:
        assert (condition, K.EnumMember) in labels, condition

    # Typing `SELE`: the words that start so, whatever their case.
    typed = await client.text_document_completion_async(
        types.CompletionParams(text_document=doc(CHEG), position=at(TOUR, "SELECC S,CAPT", plus=4))
    )
    assert {i.label for i in typed.items} == {"SELECT", "SELECC"}


async def test_cheg_document_symbols_are_the_tags(client):
    open_document(client, CHEG, "cheg", TOUR)
    symbols = await client.text_document_document_symbol_async(
        types.DocumentSymbolParams(text_document=doc(CHEG))
    )
    assert [s.name for s in symbols] == cheg_tags(TOUR)
    assert_well_formed(symbols)
    assert {s.kind for s in symbols} == {types.SymbolKind.Function}
    caps = next(s for s in symbols if s.name == "CAPS")
    assert caps.selection_range == span(TOUR, "CAPS:", length=4)


async def test_cheg_semantic_tokens(client):
    open_document(client, CHEG, "cheg", TOUR)
    result = await client.text_document_semantic_tokens_full_async(
        types.SemanticTokensParams(text_document=doc(CHEG))
    )
    tokens = decode_tokens(client, result.data)

    def token(needle, plus=0):
        p = at(TOUR, needle, plus=plus)
        return tokens.get((p.line, p.character))

    first = TOUR.split("\n")[0]
    assert token(first) == (utf16_len(first), "comment", set())
    assert token("ISCAP:") == (5, "function", {"declaration"})
    assert token("SELECC S,CAPT") == (6, "keyword", set())
    assert token("SELECC S,CAPT", plus=9) == (4, "enumMember", set())
    assert token("LM,CAPS", plus=3) == (4, "function", set())


async def test_cheg_folding_of_the_comment_block(client):
    open_document(client, CHEG, "cheg", TOUR)
    folds = await client.text_document_folding_range_async(
        types.FoldingRangeParams(text_document=doc(CHEG))
    )
    comments = lines_with(TOUR, r"^\s*;")
    runs = []
    for line in comments:
        if runs and runs[-1][1] == line - 1:
            runs[-1][1] = line
        else:
            runs.append([line, line])
    expected = [(a, b, types.FoldingRangeKind.Comment) for a, b in runs if b > a]
    assert expected and expected[0][:2] == (0, 8)
    assert [(f.start_line, f.end_line, f.kind) for f in folds] == expected


@pytest.mark.parametrize(
    "good, bad",
    [("CONDT ISCAP,LM,CAPS", "CONDT ISCAP,LM,CAPZ"), ('RETURN "T', 'RETRUN "T')],
    ids=["tag", "instruction"],
)
async def test_cheg_quick_fix_changes_a_misspelling(client, good, bad):
    broken = TOUR.replace(good, bad, 1)
    assert broken != TOUR
    open_document(client, CHEG, "cheg", broken)
    (diagnostic,) = await diagnostics_of(client, CHEG, 1)
    assert_matches_cli(diagnostic, "cheg", broken)
    actions = await client.text_document_code_action_async(
        types.CodeActionParams(
            text_document=doc(CHEG),
            range=diagnostic.range,
            context=types.CodeActionContext(diagnostics=[diagnostic]),
        )
    )
    word = [w for w, x in zip(re.split(r"[ ,]", good), re.split(r"[ ,]", bad)) if w != x][0]
    assert [a.title for a in actions] == [f"Change to {word}"]
    assert actions[0].kind == types.CodeActionKind.QuickFix
    assert actions[0].is_preferred
    fixed = apply_edits(broken, edits_for(actions[0].edit, CHEG))
    assert fixed == TOUR

    change_document(client, CHEG, 2, fixed)
    assert await diagnostics_of(client, CHEG, 2) == []


def mangle_cheg(text: str) -> str:
    """Blanks and columns off the examples' layout, which `icp2c fmt`
    restores."""
    return (
        text.replace("ISCAP:  SELECC S,CAPT,X", "ISCAP: SELECC S , CAPT ,X")
        .replace("        CONDV EMPTY,S,NO", "  CONDV   EMPTY S,NO")
        .replace("        RETURN \"T\n", "RETURN \"T\n", 1)
    )


async def test_cheg_formatting(client):
    unformatted = mangle_cheg(TOUR)
    assert unformatted != TOUR and cli_accepts("cheg", unformatted)
    open_document(client, CHEG, "cheg", unformatted)
    edits = await client.text_document_formatting_async(
        types.DocumentFormattingParams(
            text_document=doc(CHEG),
            options=types.FormattingOptions(tab_size=8, insert_spaces=True),
        )
    )
    formatted = apply_edits(unformatted, edits)
    assert formatted == cli_format("cheg", unformatted)
    assert formatted == TOUR


# ==========================================================================
# Finvara: examples/add.fin


ADD = example("add.fin")
FIN = uri_of("add.fin")


async def test_fin_diagnostics_follow_the_text(client):
    broken = ADD.replace("(r 3): (1,0)", "(r 3): (1,0")
    assert broken != ADD
    open_document(client, FIN, "fin", broken)
    found = await diagnostics_of(client, FIN, 1)
    assert len(found) == 1, found
    assert_matches_cli(found[0], "fin", broken)

    change_document(client, FIN, 2, ADD)
    assert await diagnostics_of(client, FIN, 2) == []


def mangle_fin(text: str) -> str:
    """Blanks off the examples' layout, which `icp2c fmt` takes away."""
    return (
        text.replace("(r 3): (1,0)    # reader", "(r 3):(1, 0) # reader")
        .replace("Turn 1 W: r b1 -> a1   # read", "Turn 1 W:  r b1->a1 # read")
        .replace("Turn 3 B: n d2 -> d2", "Turn  3  B:  n  d2  ->  d2")
    )


async def test_fin_formatting(client):
    unformatted = mangle_fin(ADD)
    assert unformatted != ADD and cli_accepts("fin", unformatted)
    open_document(client, FIN, "fin", unformatted)
    edits = await client.text_document_formatting_async(
        types.DocumentFormattingParams(
            text_document=doc(FIN),
            options=types.FormattingOptions(tab_size=4, insert_spaces=True),
        )
    )
    formatted = apply_edits(unformatted, edits)
    assert formatted == cli_format("fin", unformatted)
    assert formatted == ADD


async def test_fin_definition_of_a_piece_symbol(client):
    open_document(client, FIN, "fin", ADD)
    for use, plus, definition in [("|rW|", 1, "(r 3)"), ("|kB|", 1, "(k)"), ("W: s", 3, "(s 6)")]:
        found = await client.text_document_definition_async(
            types.DefinitionParams(text_document=doc(FIN), position=at(ADD, use, plus=plus))
        )
        assert found == types.Location(uri=FIN, range=span(ADD, definition, plus=1, length=1)), use


async def test_fin_definition_of_a_checks_turn_jump(client):
    """`checks turn 4` in a Black move goes on at turn 4's Black move
    (§5.3): that line is among the definitions, and each is turn 4's."""
    text = example("countdown.fin")
    uri = uri_of("countdown.fin")
    open_document(client, uri, "fin", text)
    jump = "Turn 3 B: c d3 checks turn 4"
    found = await client.text_document_definition_async(
        types.DefinitionParams(text_document=doc(uri), position=at(text, jump, plus=len(jump) - 1))
    )
    found = found if isinstance(found, (list, tuple)) else [found]
    assert span(text, "\nTurn 4 B", plus=6, length=1) in [loc.range for loc in found]
    lines = text.split("\n")
    for loc in found:
        assert lines[loc.range.start.line].startswith("Turn 4 ") and loc.range.start.character == 5


def fin_uses_of_r() -> list[types.Range]:
    """Where examples/add.fin names the piece `r`: its definition, the
    board's two `rW`, the two moves of an `r`."""
    return [
        span(ADD, "(r 3)", plus=1, length=1),
        span(ADD, "|rW|", plus=1, length=1),
        span(ADD, "|rW|", nth=1, plus=1, length=1),
        span(ADD, "Turn 1 W: r", plus=10),
        span(ADD, "Turn 2 W: r", plus=10),
    ]


async def test_fin_references_of_a_piece(client):
    open_document(client, FIN, "fin", ADD)
    uses = fin_uses_of_r()
    for include, expected in [(True, uses), (False, uses[1:])]:
        found = await client.text_document_references_async(
            types.ReferenceParams(
                text_document=doc(FIN),
                position=at(ADD, "Turn 2 W: r", plus=10),
                context=types.ReferenceContext(include_declaration=include),
            )
        )
        assert [loc.range for loc in found] == expected
        assert {loc.uri for loc in found} == {FIN}


async def test_fin_rename_a_piece(client):
    open_document(client, FIN, "fin", ADD)
    edit = await client.text_document_rename_async(
        types.RenameParams(
            text_document=doc(FIN), position=at(ADD, "|rW|", plus=1), new_name="z"
        )
    )
    edits = edits_for(edit, FIN)
    assert sorted(e.range.start.line for e in edits) == [r.start.line for r in fin_uses_of_r()]
    renamed = apply_edits(ADD, edits)
    expected = ADD.replace("(r 3)", "(z 3)").replace("rW|", "zW|").replace("W: r b", "W: z b")
    assert renamed == expected
    assert cli_accepts("fin", renamed)

    # `s` is the adder's symbol already.
    clash = ADD.replace("(r 3)", "(s 3)").replace("rW|", "sW|").replace("W: r b", "W: s b")
    headline = cli_diagnostic("fin", clash)["headline"]
    refused = await refusal(
        client.text_document_rename_async(
            types.RenameParams(text_document=doc(FIN), position=at(ADD, "(r 3)", plus=1), new_name="s")
        )
    )
    assert refused.message == f"renaming piece r to s would break the program: {headline}"


async def test_fin_hover_quotes_the_reference(client):
    open_document(client, FIN, "fin", ADD)
    hover = await client.text_document_hover_async(
        types.HoverParams(text_document=doc(FIN), position=at(ADD, "|rW|", plus=1))
    )
    assert hover.contents.kind == types.MarkupKind.Markdown
    assert hover.range == span(ADD, "|rW|", plus=1, length=1)
    text = hover.contents.value
    assert reference_section(text, "finvara") == "§2.1"
    # Value 3 (§4's table of actions) and the square, as the move `r b1 -> a1` names it.
    value, action = table_row("finvara", "3 |")
    assert action in text
    assert "a white `r` on `b1`" in text

    hole = await client.text_document_hover_async(
        types.HoverParams(text_document=doc(FIN), position=at(ADD, "|##", plus=1))
    )
    assert reference_section(hole.contents.value, "finvara") == "§4"


async def test_fin_completion_offers_pieces_and_words(client):
    open_document(client, FIN, "fin", ADD)
    found = await client.text_document_completion_async(
        types.CompletionParams(text_document=doc(FIN), position=at(ADD, "Turn 4 W: p", plus=10))
    )
    items = found.items if isinstance(found, types.CompletionList) else found
    labels = {(i.label, i.kind) for i in items}
    K = types.CompletionItemKind
    for piece in re.findall(r"^\((\S)", ADD, re.M):
        assert (piece, K.Class) in labels, piece
    for turn in set(re.findall(r"^Turn (\d+)", ADD, re.M)):
        assert (turn, K.Reference) in labels, turn
    assert ("Turn", K.Keyword) in labels
    assert {("W", K.EnumMember), ("B", K.EnumMember)} <= labels
    for word in ["c(", "m(", "->[", "x"]:
        assert (word, K.Keyword) in labels, word


async def test_fin_document_symbols_are_pieces_and_turns(client):
    open_document(client, FIN, "fin", ADD)
    symbols = await client.text_document_document_symbol_async(
        types.DocumentSymbolParams(text_document=doc(FIN))
    )
    pieces = re.findall(r"^\((\S)", ADD, re.M)
    turns = re.findall(r"^Turn (\d+)", ADD, re.M)
    assert [(s.name, s.kind) for s in symbols] == [
        *((p, types.SymbolKind.Class) for p in pieces),
        *((t, types.SymbolKind.Event) for t in turns),
    ]
    assert_well_formed(symbols)
    adder = next(s for s in symbols if s.name == "s")
    assert adder.selection_range == span(ADD, "(s 6)", plus=1, length=1)
    assert adder.detail == "(1,0)"
    last = symbols[-1]
    assert last.selection_range == span(ADD, "Turn 4 W", plus=5, length=1)
    assert last.detail == "Turn 4 W: p b4 -> a4"


async def test_fin_semantic_tokens(client):
    open_document(client, FIN, "fin", ADD)
    result = await client.text_document_semantic_tokens_full_async(
        types.SemanticTokensParams(text_document=doc(FIN))
    )
    tokens = decode_tokens(client, result.data)

    def token(needle, plus=0):
        p = at(ADD, needle, plus=plus)
        return tokens.get((p.line, p.character))

    first = ADD.split("\n")[0]
    assert token(first) == (utf16_len(first), "comment", set())
    assert token("# royal") == (len("# royal, cannot move"), "comment", set())
    assert token("(s 6)", plus=1) == (1, "function", {"declaration"})
    assert token("(s 6)", plus=3) == (1, "number", set())
    assert token("|kB|", plus=1) == (1, "type", set())
    assert token("|kB|", plus=2) == (1, "enumMember", set())
    move = "Turn 3 W: s b3 -> a3"
    assert token(move) == (4, "keyword", set())
    assert token(move, plus=5) == (1, "number", set())
    assert token(move, plus=7) == (1, "enumMember", set())
    assert token(move, plus=10) == (1, "type", set())
    assert token(move, plus=12) == (2, "variable", set())
    assert token(move, plus=15) == (2, "operator", set())


async def test_fin_folding_of_the_comment_block(client):
    open_document(client, FIN, "fin", ADD)
    folds = await client.text_document_folding_range_async(
        types.FoldingRangeParams(text_document=doc(FIN))
    )
    comments = lines_with(ADD, r"^#")
    # The header; the trailing comments of definitions and moves fold not.
    assert comments == list(range(9))
    assert [(f.start_line, f.end_line, f.kind) for f in folds] == [
        (0, 8, types.FoldingRangeKind.Comment)
    ]


# ==========================================================================
# Every language: a program with errors is not formatted.


@pytest.mark.parametrize(
    "lang, name, good, bad",
    [
        ("icp", "multiply.icp", "15. ^?11", "15. ^?16"),
        ("cheg", "tour.cheg", "LM,CAPS", "LM,CAPZ"),
        ("fin", "add.fin", "(r 3): (1,0)", "(r 3): (1,0"),
    ],
)
async def test_formatting_refused_for_a_program_with_errors(client, lang, name, good, bad):
    broken = example(name).replace(good, bad)
    assert broken != example(name)
    uri = uri_of(name)
    open_document(client, uri, lang, broken)
    refused = await refusal(
        client.text_document_formatting_async(
            types.DocumentFormattingParams(
                text_document=doc(uri),
                options=types.FormattingOptions(tab_size=4, insert_spaces=True),
            )
        )
    )
    headline = cli_diagnostic(lang, broken)["headline"]
    assert refused.message == f"not formatted: the program has errors ({headline})"
