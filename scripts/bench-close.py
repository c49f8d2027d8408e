#!/usr/bin/env python3
"""How long quitting the window takes while a preset plays (docs/benchmarks.md, "Closing a lab").

Opens `faexplorer --preset PRESET` on an X display (Xvfb), clicks Play, waits, presses Ctrl+Q and
times from the key to the end of the process, as its parent sees it (wait(), not a polling loop:
a zombie is still "there" for `kill -0` until its parent reaps it). Needs xdotool.

  DISPLAY=:77 scripts/bench-close.py [--binary build/bin/faexplorer] PRESET SECONDS...
"""
import argparse
import os
import subprocess
import tempfile
import time


def quit_after(binary, preset, seconds, env):
    app = subprocess.Popen([binary, "--preset", preset], env=env,
                           stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        window = subprocess.check_output(
            ["xdotool", "search", "--sync", "--onlyvisible", "--name", "FA Explorer"],
            env=env, timeout=30).split()[0]
        time.sleep(2)  # the preset's first frame
        subprocess.run(["xdotool", "windowactivate", "--sync", window], env=env,
                       stderr=subprocess.DEVNULL, check=False, timeout=10)
        # Play, the toolbar's first button (the click also gives the window the keyboard)
        subprocess.run(["xdotool", "mousemove", "--window", window, "33", "34", "click", "1"],
                       env=env, check=True, timeout=10)
        time.sleep(seconds)
        start = time.monotonic()
        subprocess.run(["xdotool", "key", "ctrl+q"], env=env, check=True, timeout=10)
    except (subprocess.SubprocessError, IndexError):
        app.kill()
        raise
    try:
        app.wait(timeout=30)
    except subprocess.TimeoutExpired:
        app.kill()
        return float("inf")
    return time.monotonic() - start


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--binary", default="build/bin/faexplorer")
    parser.add_argument("preset")
    parser.add_argument("seconds", type=float, nargs="+")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as home:  # a fresh profile: no saved window state
        env = dict(os.environ, HOME=home)
        for seconds in args.seconds:
            took = quit_after(args.binary, args.preset, seconds, env)
            print(f"{args.preset}\tclosed after {seconds:g} s playing\t{took:.3f} s to quit")


if __name__ == "__main__":
    main()
