"""Firmware of the HOME LED board: a Raspberry Pi Pico with MicroPython and a WS2812 strip.

Copy pawnled.py, ledboard.py and this file to the Pico (see hardware/README.md); it runs at
power-up. The USB serial line is the REPL's: Ctrl-C is switched off so that a stray 0x03
byte cannot stop the firmware, and stdin is polled so the LEDs keep animating while no
byte arrives. Everything the board decides lives in ledboard.py, which is tested on the host.
To update the files later, power it up with GP15 grounded (safe mode): the REPL stays free.
"""

import select
import sys
import time

import machine
import micropython
import neopixel
import pawnled
from ledboard import LedBoard

DATA_PIN = 0  # GP0, physical pin 1: the strip's data line, through the level shifter
SAFE_PIN = 15  # GP15, physical pin 20: jumpered to GND at power-up, the firmware stays off
FRAME_MS = 20  # poll stdin and redraw at most 50 times a second
READ_CHUNK = 64  # bytes read per frame at most, so animation never starves


def uid():
    return "".join(f"{b:02X}" for b in machine.unique_id())


def safe_mode():
    """With Ctrl-C off, mpremote cannot stop the firmware: this jumper lets it in again."""
    return machine.Pin(SAFE_PIN, machine.Pin.IN, machine.Pin.PULL_UP).value() == 0


def serve(leds, poll, stdin, stdout):
    """One frame: say what the board says by itself, then answer what the host sent."""
    for line in leds.tick(time.ticks_ms()):
        stdout.write(line.encode())
    data = bytearray()
    while len(data) < READ_CHUNK and poll.poll(0 if data else FRAME_MS):
        data.extend(stdin.read(1))
    if data:
        for line in leds.receive(data, time.ticks_ms()):
            stdout.write(line.encode())


def run():
    micropython.kbd_intr(-1)
    strip = neopixel.NeoPixel(machine.Pin(DATA_PIN), pawnled.LEDS)
    leds = LedBoard(strip, uid(), time.ticks_ms(), time.ticks_diff)
    poll = select.poll()
    poll.register(sys.stdin, select.POLLIN)
    while True:
        try:
            serve(leds, poll, sys.stdin.buffer, sys.stdout.buffer)
        except Exception:  # a firmware bug or a USB hiccup: say so, keep the board serving
            leds.faults += 1
            try:  # noqa: SIM105 - MicroPython has no contextlib
                sys.stdout.buffer.write(pawnled.err_line(None, "fault").encode())
            except Exception:
                pass
            time.sleep_ms(FRAME_MS)  # never spin if the fault repeats every frame


if safe_mode():
    print("PAWNLED safe mode: GP15 is grounded, the REPL is yours")
else:
    run()
