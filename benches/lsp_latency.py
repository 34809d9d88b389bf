#!/usr/bin/env python3
"""How long `icp2c lsp` takes to answer on a big program (docs/performance.md).

Opens a generated InfChessPro program of N statements (default 100,000),
then, ROUNDS times: changes one statement (alternately breaking and mending
it) and measures
  - diagnostics: from sending the change to receiving the diagnostics of
    that version (the server waits 150 ms of quiet first, by design);
  - a hover sent as soon as the diagnostics arrive (the server works out
    the document's outline, which hovers read, on a thread of its own
    once it has published them: this one may wait for it), and another a
    second later.
Prints the median and worst of each. Usage:
  benches/lsp_latency.py [--icp2c target/release/icp2c] [--statements N] [--rounds R]
"""
import argparse, json, statistics, subprocess, time


def program(n):
    lines = ["# a long program: pieces placed and moved, jumps forward"]
    for i in range(1, n + 1):
        label = i * 10
        kind = i % 4
        if kind == 0:
            lines.append(f"{label}. p{i}=R{i},0")
        elif kind == 1 and i > 1:
            lines.append(f"{label}. p{i - 1};0,1?{label + 10}!{label + 10}")
        elif kind == 2:
            lines.append(f'{label}. "statement {i}')
        elif kind == 3 and i > 3:
            lines.append(f"{label}. %p{i - 3}")
        else:
            lines.append(f"{label}. ^")
    return "\n".join(lines) + "\n"


class Client:
    def __init__(self, exe):
        self.p = subprocess.Popen([exe, "lsp"], stdin=subprocess.PIPE, stdout=subprocess.PIPE)
        self.next_id = 0

    def send(self, obj):
        body = json.dumps(obj).encode()
        self.p.stdin.write(b"Content-Length: %d\r\n\r\n" % len(body) + body)
        self.p.stdin.flush()

    def request(self, method, params):
        self.next_id += 1
        self.send({"jsonrpc": "2.0", "id": self.next_id, "method": method, "params": params})
        return self.next_id

    def notify(self, method, params):
        self.send({"jsonrpc": "2.0", "method": method, "params": params})

    def receive(self):
        length = None
        while True:
            line = self.p.stdout.readline()
            if line in (b"\r\n", b""):
                break
            if line.lower().startswith(b"content-length:"):
                length = int(line.split(b":")[1])
        return json.loads(self.p.stdout.read(length))

    def until(self, test):
        while True:
            message = self.receive()
            if test(message):
                return message


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--icp2c", default="target/release/icp2c")
    ap.add_argument("--statements", type=int, default=100_000)
    ap.add_argument("--rounds", type=int, default=7)
    args = ap.parse_args()
    text = program(args.statements)
    uri = "file:///bench/long.icp"
    c = Client(args.icp2c)
    c.request("initialize", {"capabilities": {}, "processId": None, "rootUri": None})
    c.until(lambda m: m.get("id") == 1)
    c.notify("initialized", {})
    c.notify("textDocument/didOpen", {"textDocument": {
        "uri": uri, "languageId": "infchesspro", "version": 1, "text": text}})
    c.until(lambda m: m.get("method") == "textDocument/publishDiagnostics")
    lines = text.split("\n")
    middle = args.statements // 2
    diagnostics, cold, warm = [], [], []
    for version in range(2, 2 + args.rounds):
        broken = version % 2 == 0
        changed = list(lines)
        if broken:
            changed[middle] = changed[middle].replace(".", "", 1)  # `N ^`: no `.`
        new_text = "\n".join(changed)
        start = time.perf_counter()
        c.notify("textDocument/didChange", {
            "textDocument": {"uri": uri, "version": version},
            "contentChanges": [{"text": new_text}]})
        m = c.until(lambda m: m.get("method") == "textDocument/publishDiagnostics"
                    and m["params"].get("version") == version)
        diagnostics.append(time.perf_counter() - start)
        count = len(m["params"]["diagnostics"])
        assert count == (1 if broken else 0), (version, count)
        for times in (cold, warm):
            if times is warm:
                time.sleep(1)  # the user reads the diagnostic, moves the mouse
            start = time.perf_counter()
            hover = c.request("textDocument/hover", {
                "textDocument": {"uri": uri},
                "position": {"line": middle + 3, "character": 1}})
            answer = c.until(lambda m: m.get("id") == hover)
            times.append(time.perf_counter() - start)
            assert answer["result"]["contents"]["value"].startswith("statement"), answer
    c.request("shutdown", None)
    c.until(lambda m: m.get("id") == c.next_id)
    c.notify("exit", None)
    c.p.wait(10)
    ms = lambda xs: f"median {statistics.median(xs) * 1000:.0f} ms, worst {max(xs) * 1000:.0f} ms"
    print(f"{args.statements} statements ({len(text) / 1e6:.1f} MB), {args.rounds} changes")
    print(f"diagnostics after a change: {ms(diagnostics)} (150 ms of it the debounce)")
    print(f"hover as soon as the diagnostics arrive: {ms(cold)}")
    print(f"hover a second later: {ms(warm)}")


if __name__ == "__main__":
    main()
