#!/usr/bin/env python3
"""Drives headless Chromium through the DevTools protocol (standard library only).

Headless Chromium's --virtual-time-budget does not wait for Web Workers (virtual time runs
ahead while the page's own thread is idle), so the web tests open the page here and poll it in
real time instead:

  cdp.py URL --until 'JS condition' [--timeout S] [--print 'JS expression'] [--screenshot F]

waits until the condition is true (or fails after S seconds, printing the page's umax-state),
then prints the expression's value (a string) and writes the screenshot.
"""
import argparse
import base64
import json
import os
import shutil
import socket
import struct
import subprocess
import sys
import tempfile
import time
import urllib.request


class WebSocket:
    """The client half of RFC 6455, enough for the DevTools protocol."""

    def __init__(self, url):
        assert url.startswith("ws://")
        host_port, path = url[5:].split("/", 1)
        host, port = host_port.split(":")
        self.sock = socket.create_connection((host, int(port)))
        key = base64.b64encode(os.urandom(16)).decode()
        self.sock.sendall((f"GET /{path} HTTP/1.1\r\nHost: {host_port}\r\nUpgrade: websocket\r\n"
                           f"Connection: Upgrade\r\nSec-WebSocket-Key: {key}\r\n"
                           "Sec-WebSocket-Version: 13\r\n\r\n").encode())
        reply = b""
        while b"\r\n\r\n" not in reply:
            chunk = self.sock.recv(4096)
            if not chunk:
                raise RuntimeError("DevTools closed the connection during the handshake")
            reply += chunk
        if b" 101 " not in reply.split(b"\r\n", 1)[0]:
            raise RuntimeError("DevTools refused the WebSocket: " + reply.decode(errors="replace"))
        self.buffer = reply.split(b"\r\n\r\n", 1)[1]

    def send(self, text):
        data = text.encode()
        header = bytes([0x81])
        if len(data) < 126:
            header += bytes([0x80 | len(data)])
        elif len(data) < 65536:
            header += bytes([0x80 | 126]) + struct.pack(">H", len(data))
        else:
            header += bytes([0x80 | 127]) + struct.pack(">Q", len(data))
        mask = os.urandom(4)
        self.sock.sendall(header + mask + bytes(b ^ mask[i % 4] for i, b in enumerate(data)))

    def _read(self, count):
        while len(self.buffer) < count:
            chunk = self.sock.recv(1 << 20)
            if not chunk:
                raise RuntimeError("DevTools closed the connection")
            self.buffer += chunk
        data, self.buffer = self.buffer[:count], self.buffer[count:]
        return data

    def receive(self):
        message = b""
        while True:
            first, second = self._read(2)
            length = second & 0x7F
            if length == 126:
                length = struct.unpack(">H", self._read(2))[0]
            elif length == 127:
                length = struct.unpack(">Q", self._read(8))[0]
            payload = self._read(length)
            opcode = first & 0x0F
            if opcode in (0x1, 0x0):
                message += payload
                if first & 0x80:
                    return message.decode()
            elif opcode == 0x8:
                raise RuntimeError("DevTools closed the connection")


class Browser:
    """One headless Chromium with one page."""

    def __init__(self, width=1280, height=800):
        self.profile = tempfile.mkdtemp(prefix="umax-web-chromium-")
        chromium = shutil.which("chromium") or shutil.which("chromium-browser")
        if not chromium:
            raise RuntimeError("chromium not found (Debian: chromium; scripts/web.sh installs it)")
        self.process = subprocess.Popen(
            [chromium, "--headless=new", "--no-sandbox", "--use-gl=angle", "--use-angle=swiftshader",
             "--enable-unsafe-swiftshader", "--remote-debugging-port=0", f"--user-data-dir={self.profile}",
             f"--window-size={width},{height}", "--no-first-run", "about:blank"],
            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
        port = None
        deadline = time.time() + 60
        while port is None and time.time() < deadline:
            line = self.process.stderr.readline()
            if not line and self.process.poll() is not None:
                raise RuntimeError("chromium exited before it listened")
            if "DevTools listening on ws://" in line:
                port = line.split("ws://", 1)[1].split("/", 1)[0].split(":")[1]
        if port is None:
            raise RuntimeError("chromium did not say where DevTools listens")
        # Its stderr must keep draining, or chromium blocks when the pipe fills.
        import threading
        threading.Thread(target=lambda: [None for _ in self.process.stderr], daemon=True).start()
        targets = json.load(urllib.request.urlopen(f"http://127.0.0.1:{port}/json/list"))
        page = next(t for t in targets if t.get("type") == "page")
        self.ws = WebSocket(page["webSocketDebuggerUrl"])
        self.next_id = 0
        self.call("Page.enable")
        self.call("Runtime.enable")

    def call(self, method, **params):
        self.next_id += 1
        self.ws.send(json.dumps({"id": self.next_id, "method": method, "params": params}))
        while True:
            reply = json.loads(self.ws.receive())
            if reply.get("id") == self.next_id:
                if "error" in reply:
                    raise RuntimeError(f"{method}: {reply['error']}")
                return reply.get("result", {})

    def evaluate(self, expression):
        result = self.call("Runtime.evaluate", expression=expression, returnByValue=True)
        if "exceptionDetails" in result:
            raise RuntimeError(f"{expression}: {result['exceptionDetails'].get('text')}")
        return result["result"].get("value")

    def open(self, url):
        self.call("Page.navigate", url=url)

    def wait_until(self, condition, timeout):
        deadline = time.time() + timeout
        while time.time() < deadline:
            try:
                if self.evaluate(f"!!({condition})"):
                    return True
            except RuntimeError:
                pass  # the page is still loading
            time.sleep(0.1)
        return False

    def screenshot(self, path):
        data = self.call("Page.captureScreenshot", format="png")["data"]
        with open(path, "wb") as out:
            out.write(base64.b64decode(data))

    def close(self):
        self.process.terminate()
        try:
            self.process.wait(10)
        except subprocess.TimeoutExpired:
            self.process.kill()
        shutil.rmtree(self.profile, ignore_errors=True)


def emulate(browser, width, height, scale, mobile):
    """Chromium's device emulation: a `width` x `height` CSS-pixel screen of `scale` device pixels per
    CSS pixel; `mobile` also a touch screen (taps, no hover) and a phone's viewport handling."""
    browser.call("Emulation.setDeviceMetricsOverride", width=width, height=height, deviceScaleFactor=scale,
                 mobile=mobile)
    browser.call("Emulation.setTouchEmulationEnabled", enabled=mobile, maxTouchPoints=5 if mobile else 1)


def tap(browser, x, y):
    """One finger's tap at (x, y), in CSS pixels of the page."""
    point = [{"x": x, "y": y, "radiusX": 4, "radiusY": 4, "force": 1}]
    browser.call("Input.dispatchTouchEvent", type="touchStart", touchPoints=point)
    time.sleep(0.1)  # held for a few frames (Dear ImGui sees a button that is down when a frame starts)
    browser.call("Input.dispatchTouchEvent", type="touchEnd", touchPoints=[])
    time.sleep(0.1)


def press_key(browser, key, code, key_code):
    """One press of a key, held for some frames (Dear ImGui 1.86 sees a key that is down when a
    frame starts: a press and release between two frames would be lost)."""
    for kind in ("rawKeyDown", "keyUp"):
        browser.call("Input.dispatchKeyEvent", type=kind, key=key, code=code, windowsVirtualKeyCode=key_code)
        time.sleep(0.1)


def press_right(browser):
    press_key(browser, "ArrowRight", "ArrowRight", 39)


STATE = "document.getElementById('umax-state') ? document.getElementById('umax-state').textContent : ''"


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("url")
    parser.add_argument("--until", default="true", help="a JavaScript condition to wait for")
    parser.add_argument("--timeout", type=float, default=60)
    parser.add_argument("--print", dest="expression", default=STATE, help="a JavaScript expression to print")
    parser.add_argument("--screenshot")
    parser.add_argument("--size", default="1280x800")
    args = parser.parse_args()
    width, height = (int(v) for v in args.size.split("x"))
    browser = Browser(width, height)
    try:
        browser.open(args.url)
        if not browser.wait_until(args.until, args.timeout):
            print(f"cdp.py: {args.until} still false after {args.timeout} s; state: {browser.evaluate(STATE)}",
                  file=sys.stderr)
            return 1
        value = browser.evaluate(args.expression)
        print(value if isinstance(value, str) else json.dumps(value))
        if args.screenshot:
            browser.screenshot(args.screenshot)
        return 0
    finally:
        browser.close()


if __name__ == "__main__":
    sys.exit(main())
