#!/usr/bin/env node
// The `autofin` command: registers tsx's loader in this process, then runs the TypeScript entry.
import { register } from 'tsx/esm/api';

register();
await import('../src/cli/autofin.ts');
