#!/bin/sh
# The reference PBN verifier (../shared/tools/verifier/PbnJVeri.jar) is a
# Java program that opens a window even in batch mode: the differential
# tests run it with a JRE under a virtual X display.
set -eu
if ! command -v java >/dev/null 2>&1 || ! command -v xvfb-run >/dev/null 2>&1 \
    || ! command -v xauth >/dev/null 2>&1; then
    apt-get update
    apt-get install -y default-jre-headless xvfb xauth
fi
java -version 2>&1 | head -n1
