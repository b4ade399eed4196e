"""A mail catcher for trying the stack: accepts SMTP on port 1025 without
delivering anything, keeps the messages in memory, and lists them as JSON on
http://<host>:8025/messages (sender, recipients, subject, body). Not for production:
point EMAIL_URL at a real mail server there."""

import json
import threading
from email import message_from_bytes, policy
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

from aiosmtpd.controller import Controller

MESSAGES = []
LOCK = threading.Lock()


class Catcher:
    async def handle_DATA(self, server, session, envelope):
        message = message_from_bytes(envelope.content, policy=policy.default)
        body = message.get_body(preferencelist=("plain", "html"))
        with LOCK:
            MESSAGES.append(
                {
                    "from": envelope.mail_from,
                    "to": list(envelope.rcpt_tos),
                    "subject": str(message["subject"] or ""),
                    "body": body.get_content() if body is not None else "",
                }
            )
        return "250 Message accepted"


class Listing(BaseHTTPRequestHandler):
    def do_GET(self):
        if self.path != "/messages":
            self.send_error(404)
            return
        with LOCK:
            payload = json.dumps(MESSAGES).encode()
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(payload)))
        self.end_headers()
        self.wfile.write(payload)


if __name__ == "__main__":
    Controller(Catcher(), hostname="0.0.0.0", port=1025).start()
    ThreadingHTTPServer(("0.0.0.0", 8025), Listing).serve_forever()
