#!/usr/bin/python3
"""The emulated Pi's control channel: runs the commands the host sends, as root.

Exists only in the pi-vm base image (the test machine), never on a real Pi. One JSON
line in, {"id", "cmd", "timeout"}; one JSON line out, {"id", "rc", "out", "err"}.
On start it says {"hello": <boot id>} so the host knows which boot it talks to.
"""

import json
import os
import subprocess
import time

PORT = "/dev/virtio-ports/org.sorry.agent"


def main() -> None:
    while not os.path.exists(PORT):
        time.sleep(0.2)
    fd = os.open(PORT, os.O_RDWR)
    reader = os.fdopen(fd, "rb", buffering=0)
    with open("/proc/sys/kernel/random/boot_id") as f:
        boot = f.read().strip()

    def send(obj: dict) -> None:
        os.write(fd, (json.dumps(obj) + "\n").encode())

    send({"hello": boot})
    buf = b""
    while True:
        chunk = reader.read(65536)
        if not chunk:
            time.sleep(0.2)  # no host connected
            continue
        buf += chunk
        while b"\n" in buf:
            line, buf = buf.split(b"\n", 1)
            try:
                req = json.loads(line)
            except ValueError:
                continue
            if "cmd" not in req:
                send({"hello": boot})
                continue
            try:
                done = subprocess.run(["bash", "-c", req["cmd"]], capture_output=True,
                                      timeout=req.get("timeout", 600), stdin=subprocess.DEVNULL)
                reply = {"rc": done.returncode, "out": done.stdout.decode(errors="replace"),
                         "err": done.stderr.decode(errors="replace")}
            except subprocess.TimeoutExpired:
                reply = {"rc": 124, "out": "", "err": "timed out"}
            reply["id"] = req.get("id")
            send(reply)


if __name__ == "__main__":
    main()
