#!/usr/bin/env bash
# Everything the tests need that npm install does not bring. Idempotent and quiet when ready.
set -euo pipefail
exit 0
