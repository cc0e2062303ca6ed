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
# tests/src/VerifierBatch.java runs in source-file mode, which needs the
# jdk.compiler module (Debian's JRE ships it; others may need the JDK).
if ! java --list-modules 2>/dev/null | grep -q '^jdk.compiler@'; then
    apt-get install -y default-jdk-headless
fi
java -version 2>&1 | head -n1
