#!/usr/bin/env node
import { main } from '../dist/main.js';

const stop = new AbortController();
process.once('SIGINT', () => stop.abort());
process.once('SIGTERM', () => stop.abort());
const code = await main(process.argv.slice(2), { out: process.stdout, err: process.stderr, signal: stop.signal });
process.exit(code);
