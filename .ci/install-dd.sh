#!/bin/sh
# The double-dummy solver (dds-bridge, C++ DDS) generates its bindings with
# bindgen, which needs libclang.
set -eu
if ! ls /usr/lib/llvm-*/lib/libclang*.so* >/dev/null 2>&1; then
    apt-get update
    apt-get install -y libclang-dev
fi
