#!/usr/bin/env node
// The `restframework` command (see src/cli/main.ts). A JavaScript file, so that it runs from
// any node_modules: the package's own `./cli` export then picks the built command (dist/) for
// a consumer, and the TypeScript source inside this repository (its export condition).
import '@restframework/core/cli';
