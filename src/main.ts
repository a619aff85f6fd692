#!/usr/bin/env node
import { failure, runCli } from './cli/run.js';

runCli(process.argv.slice(2), { stdout: process.stdout, stderr: process.stderr, stderrIsTTY: process.stderr.isTTY === true }).then(
  (code) => {
    if (code !== undefined) process.exitCode = code;
  },
  (error: unknown) => {
    const { line, code } = failure(error);
    process.stderr.write(`${line}\n`);
    process.exit(code);
  },
);
