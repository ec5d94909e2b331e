#!/usr/bin/env python3
"""chdb HTTP front -- A TEST FIXTURE, NOT A CLICKHOUSE SERVER.

Serves ClickHouse's engine (chdb-core, ClickHouse 26.9 in-process) over the subset of ClickHouse's HTTP
interface that clickhouse-jdbc 0.9.4 uses, so Sluice's ClickHouse history store can be tested here with the
real JDBC driver and the real engine (MergeTree tables persisted under --data). There is no auth, no TLS,
no per-query settings, no sessions, no LZ4 response framing, one query at a time. Do not run it in production;
point production at a real ClickHouse server. See deploy/clickhouse/README.md.

What it speaks (observed from the driver's requests with --log-requests, see README):
  * GET / or /ping -> "Ok.\\n" (health).
  * POST / (and GET /?query=...): the SQL is the `query` URL parameter followed by the request body, or the
    body alone. Output format: header X-ClickHouse-Format, else URL parameter default_format, else
    TabSeparated (a FORMAT clause in the SQL wins, as in ClickHouse). Database: header X-ClickHouse-Database,
    else URL parameter `database`, else `default`. Query parameters `param_<name>` bind {name:Type}.
  * INSERT ... FORMAT <fmt> followed by data (in the body or after the `query` parameter): the data is spooled
    to a temporary file and loaded with INSERT ... FROM INFILE '<file>' FORMAT <fmt>.
  * Response headers: X-ClickHouse-Summary (read_rows, written_rows, result_rows, ... as ClickHouse sends
    them -- the driver trusts result_rows), X-ClickHouse-Format, X-ClickHouse-Query-Id, X-ClickHouse-Timezone.
  * Errors: HTTP 500, body "Code: N. DB::Exception: ...", header X-ClickHouse-Exception-Code: N.
  * compress=1 (ClickHouse's LZ4 block framing with CityHash128 checksums) is NOT implemented: such requests
    are answered with an error telling the client to connect with compress=false (driver property
    `compress`), and decompress=1 (compressed request bodies) likewise.

Usage: chdb_http_front.py --port PORT --data DIR [--log-requests]
  Binds 127.0.0.1 only. PORT 0 picks a free port. When ready it prints one line
  "chdb-http-front listening on 127.0.0.1:PORT" to stdout. SIGTERM/SIGINT stop it cleanly.
"""

import argparse
import json
import os
import re
import signal
import sys
import tempfile
import threading
import time
import uuid
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import parse_qs, urlsplit

import chdb
from chdb import session as chdb_session

# ClickHouse error codes used by the front itself.
BAD_ARGUMENTS = 36
UNKNOWN_EXCEPTION = 1002
NOT_IMPLEMENTED = 48

# INSERT ... FORMAT name, followed by data. Matched on a latin-1 decoding of the start of the statement.
INSERT_FORMAT = re.compile(r"^\s*(INSERT\s+INTO\s+.*?)\s+FORMAT\s+([A-Za-z0-9_]+)[ \t]*(\r?\n)?",
                           re.IGNORECASE | re.DOTALL)
CODE_IN_MESSAGE = re.compile(r"Code:\s*(\d+)")
IDENTIFIER = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*$")

LOG_REQUESTS = False


def log(msg):
    sys.stderr.write(time.strftime("%H:%M:%S ") + msg + "\n")
    sys.stderr.flush()


class FrontError(Exception):
    def __init__(self, code, message):
        super().__init__(message)
        self.code = code


class Engine:
    """One chdb session behind a lock: every query runs alone."""

    def __init__(self, data_dir):
        self.lock = threading.Lock()
        self.session = chdb_session.Session(data_dir)
        self.spool_dir = tempfile.mkdtemp(prefix="chdb-front-spool-")
        self.timezone = self.session.query("SELECT timezone()", "TabSeparated").bytes().decode().strip() or "UTC"
        self.version = self.session.query("SELECT version()", "TabSeparated").bytes().decode().strip()

    def run(self, database, sql, fmt, params, data=None):
        """Runs one statement; returns (result bytes, summary dict). data: bytes to load for INSERT ... FORMAT."""
        if not IDENTIFIER.match(database):
            raise FrontError(BAD_ARGUMENTS, "Code: %d. DB::Exception: Invalid database name '%s'. (BAD_ARGUMENTS)"
                             % (BAD_ARGUMENTS, database))
        spool = None
        try:
            if data:
                m = INSERT_FORMAT.match(sql)
                if not m:
                    raise FrontError(BAD_ARGUMENTS, "Code: %d. DB::Exception: data was sent with a statement that "
                                     "is not INSERT ... FORMAT <name> (chdb front). (BAD_ARGUMENTS)" % BAD_ARGUMENTS)
                fd, spool = tempfile.mkstemp(dir=self.spool_dir, suffix=".data")
                with os.fdopen(fd, "wb") as f:
                    f.write(data)
                sql = "%s FROM INFILE '%s' FORMAT %s" % (m.group(1), spool, m.group(2))
            started = time.monotonic_ns()
            with self.lock:
                self.session.query("USE `%s`" % database)
                if params:
                    res = self.session.query(sql, fmt, params=params)
                else:
                    res = self.session.query(sql, fmt)
            elapsed = time.monotonic_ns() - started
            body = res.bytes() or b""
            summary = {
                "read_rows": str(res.storage_rows_read()),
                "read_bytes": str(res.bytes_read()),
                "written_rows": str(res.rows_written()),
                "written_bytes": str(res.bytes_written()),
                "total_rows_to_read": str(res.storage_rows_read()),
                "result_rows": str(res.rows_read()),
                "result_bytes": str(len(body)),
                "elapsed_ns": str(elapsed),
            }
            return body, summary
        except FrontError:
            raise
        except Exception as e:  # chdb raises ChdbError / RuntimeError with ClickHouse's own message
            msg = str(e).strip()
            m = CODE_IN_MESSAGE.search(msg)
            code = int(m.group(1)) if m else UNKNOWN_EXCEPTION
            if not m:
                msg = "Code: %d. DB::Exception: %s. (UNKNOWN_EXCEPTION)" % (code, msg)
            raise FrontError(code, msg)
        finally:
            if spool:
                try:
                    os.unlink(spool)
                except OSError:
                    pass

    def close(self):
        with self.lock:
            self.session.close()
        try:
            os.rmdir(self.spool_dir)
        except OSError:
            pass


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    server_version = "chdb-http-front"
    engine = None  # set in main

    def log_message(self, fmt, *args):  # quiet: BaseHTTPRequestHandler logs every request otherwise
        if LOG_REQUESTS:
            log("http " + (fmt % args))

    def read_body(self):
        if "chunked" in (self.headers.get("Transfer-Encoding") or "").lower():
            parts = []
            while True:
                line = self.rfile.readline(65537)
                size = int(line.split(b";", 1)[0].strip() or b"0", 16)
                if size == 0:
                    while self.rfile.readline(65537) not in (b"\r\n", b"\n", b""):
                        pass  # trailers
                    break
                parts.append(self.rfile.read(size))
                self.rfile.readline(3)  # CRLF after each chunk
            return b"".join(parts)
        length = int(self.headers.get("Content-Length") or 0)
        return self.rfile.read(length) if length > 0 else b""

    def do_GET(self):
        self.handle_query(b"")

    def do_POST(self):
        self.handle_query(self.read_body())

    def handle_query(self, body):
        url = urlsplit(self.path)
        qs = {k: v[-1] for k, v in parse_qs(url.query, keep_blank_values=True).items()}
        query_id = self.headers.get("X-ClickHouse-Query-Id") or qs.get("query_id") or str(uuid.uuid4())
        if LOG_REQUESTS:
            log("request %s %s headers=%s body[%d]=%r" % (
                self.command, self.path,
                {k: ("***" if k.lower() in ("authorization", "x-clickhouse-key") else v)
                 for k, v in self.headers.items()},
                len(body), body[:600]))
        if url.path in ("/ping",) or (url.path == "/" and not body and "query" not in qs):
            return self.reply(200, b"Ok.\n", {"Content-Type": "text/plain; charset=UTF-8"})
        if url.path != "/":
            return self.fail(query_id, FrontError(BAD_ARGUMENTS, "Code: %d. DB::Exception: unknown path %s "
                                                  "(chdb front serves / and /ping). (BAD_ARGUMENTS)"
                                                  % (BAD_ARGUMENTS, url.path)), 404)
        try:
            for flag, prop in (("compress", "compress"), ("decompress", "decompress")):
                if qs.get(flag, "0") not in ("0", "false", ""):
                    raise FrontError(NOT_IMPLEMENTED, "Code: %d. DB::Exception: %s=1 (LZ4 block framing) is not "
                                     "implemented by the chdb test front; connect with the driver property %s=false. "
                                     "(NOT_IMPLEMENTED)" % (NOT_IMPLEMENTED, flag, prop))
            if self.headers.get("Content-Encoding"):
                raise FrontError(NOT_IMPLEMENTED, "Code: %d. DB::Exception: Content-Encoding %s is not supported by "
                                 "the chdb test front. (NOT_IMPLEMENTED)"
                                 % (NOT_IMPLEMENTED, self.headers.get("Content-Encoding")))
            fmt = self.headers.get("X-ClickHouse-Format") or qs.get("default_format") or "TabSeparated"
            database = self.headers.get("X-ClickHouse-Database") or qs.get("database") or "default"
            params = {k[len("param_"):]: v for k, v in qs.items() if k.startswith("param_")}
            sql, data = self.split_statement(qs.get("query"), body)
            result, summary = self.engine.run(database, sql, fmt, params, data)
            headers = {
                "Content-Type": "application/octet-stream" if fmt.startswith("RowBinary") or fmt == "Native"
                else "text/plain; charset=UTF-8",
                "X-ClickHouse-Format": fmt,
                "X-ClickHouse-Query-Id": query_id,
                "X-ClickHouse-Timezone": self.engine.timezone,
                "X-ClickHouse-Server-Display-Name": "chdb-http-front",
                "X-ClickHouse-Summary": json.dumps(summary, separators=(",", ":")),
            }
            if LOG_REQUESTS:
                log("reply 200 summary=%s body[%d]=%r" % (headers["X-ClickHouse-Summary"], len(result), result[:200]))
            return self.reply(200, result, headers)
        except FrontError as e:
            return self.fail(query_id, e)
        except Exception as e:  # a bug in the front: still answer like ClickHouse would
            return self.fail(query_id, FrontError(UNKNOWN_EXCEPTION, "Code: %d. DB::Exception: chdb front: %s: %s. "
                                                  "(UNKNOWN_EXCEPTION)" % (UNKNOWN_EXCEPTION, type(e).__name__, e)))

    @staticmethod
    def split_statement(query_param, body):
        """Returns (sql text, insert data or None) as ClickHouse reads `query` + body."""
        if query_param is not None:
            if not body:
                return query_param, None
            if INSERT_FORMAT.match(query_param):
                return query_param, body
            return query_param + "\n" + body.decode("utf-8"), None
        head = body[:65536].decode("latin-1")
        m = INSERT_FORMAT.match(head)
        if m and len(m.group(0).encode("latin-1")) < len(body):
            cut = len(m.group(0).encode("latin-1"))
            return body[:cut].decode("utf-8").strip(), body[cut:]
        return body.decode("utf-8"), None

    def fail(self, query_id, err, status=500):
        text = str(err)
        if LOG_REQUESTS:
            log("reply %d %s" % (status, text))
        self.reply(status, (text + "\n").encode("utf-8"), {
            "Content-Type": "text/plain; charset=UTF-8",
            "X-ClickHouse-Exception-Code": str(err.code),
            "X-ClickHouse-Query-Id": query_id,
        })

    def reply(self, status, body, headers):
        self.send_response(status)
        for k, v in headers.items():
            self.send_header(k, v)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        if self.command != "HEAD":
            self.wfile.write(body)


class Server(ThreadingHTTPServer):
    daemon_threads = True
    allow_reuse_address = True

    def handle_error(self, request, client_address):
        err = sys.exc_info()[1]
        if isinstance(err, (ConnectionError, TimeoutError)):
            if LOG_REQUESTS:
                log("connection from %s ended: %s" % (client_address, err))
            return  # the client closed a kept-alive connection: normal
        super().handle_error(request, client_address)


def main():
    global LOG_REQUESTS
    ap = argparse.ArgumentParser(description="chdb HTTP front (test fixture; not a ClickHouse server)")
    ap.add_argument("--port", type=int, required=True, help="TCP port on 127.0.0.1 (0: pick a free one)")
    ap.add_argument("--data", required=True, help="directory for chdb's data (MergeTree parts persist here)")
    ap.add_argument("--log-requests", action="store_true", help="log every request and reply to stderr")
    args = ap.parse_args()
    LOG_REQUESTS = args.log_requests
    os.makedirs(args.data, exist_ok=True)
    Handler.engine = Engine(args.data)
    server = Server(("127.0.0.1", args.port), Handler)
    stopping = threading.Event()

    def stop(signum, _frame):
        if not stopping.is_set():
            stopping.set()
            log("signal %d: stopping" % signum)
            threading.Thread(target=server.shutdown, daemon=True).start()

    signal.signal(signal.SIGTERM, stop)
    signal.signal(signal.SIGINT, stop)
    log("chdb %s (engine %s), data %s" % (getattr(chdb, "__version__", "?"), Handler.engine.version,
                                          os.path.abspath(args.data)))
    print("chdb-http-front listening on 127.0.0.1:%d" % server.server_address[1], flush=True)
    try:
        server.serve_forever(poll_interval=0.2)
    finally:
        server.server_close()
        Handler.engine.close()
        log("stopped")


if __name__ == "__main__":
    main()
