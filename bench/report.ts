/**
 * The remote bench's figures as markdown tables: per scenario, every figure
 * with its ratio to Express + http-proxy-middleware (hpm, what users run
 * today); a summary; memory per process; the sequential mode; the pacing probe.
 */
import { availableParallelism, loadavg } from 'node:os';
import type { Figures } from './measure.js';
import { roleName, roles, type RemoteOptions, type RemoteReport, type Role } from './remote.js';

const known = (value: number) => !Number.isNaN(value) && Number.isFinite(value);
const ms = (value: number) =>
  !known(value) ? 'n/a' : value < 1 ? `${value.toFixed(2)} ms` : value < 100 ? `${value.toFixed(1)} ms` : `${value.toFixed(0)} ms`;
const us = (value: number) => (known(value) ? `${value.toFixed(0)} us` : 'n/a');
const mb = (bytes: number) => (known(bytes) && bytes > 0 ? `${(bytes / 2 ** 20).toFixed(0)} MB` : 'n/a');
const pct = (value: number) => (known(value) ? `${value.toFixed(0)}%` : 'n/a');
const kilo = (value: number) => (value >= 1000 ? `${(value / 1000).toFixed(1)}k` : value.toFixed(0));
const ratio = (value: number, hpm: number) => (known(value / hpm) ? `${(value / hpm).toFixed(2)}x` : 'n/a');
/** The targets, whatever the caller's dialect. */
const shortNames: Record<Role, string> = {
  direct: 'mock upstream alone',
  bare: 'node:http pass-through',
  hpm: 'Express + http-proxy-middleware',
  same: 'dialect-proxy, same dialect',
  translated: 'dialect-proxy, translated',
};
/** A figure and, but on hpm's own row, its ratio to hpm's. */
const withRatio = (text: string, value: number, hpm: number, isHpm: boolean) => (isHpm ? text : `${text} (${ratio(value, hpm)})`);

export function printRemote(report: RemoteReport, options: RemoteOptions): void {
  console.log(
    `remote side: ${options.connections} connections, ${options.seconds} s per load, ${options.rounds} rounds alternating between targets (median of the rounds); streams carry ${options.tokens} tokens, which the mock writes whole at once`,
  );
  console.log(
    `machine: ${availableParallelism()} cores shared with whatever else runs; load average before: ${loadavg()
      .map((value) => value.toFixed(2))
      .join(' ')}; node ${process.version}`,
  );
  console.log(`placement: ${report.placement}`);
  console.log(
    "dialect-proxy runs as users run it: node dist/src/cli.js --config <generated yaml> (server.logLevel: warn), one process per config; the pass-throughs relay the caller's own dialect to the mock's same path (they translate nothing).",
  );
  console.log(
    'In parentheses: the ratio to Express + http-proxy-middleware (hpm) in the same run: above 1 is better for req/s, below 1 for times, CPU and memory.',
  );

  for (const { scenario, figures } of report.scenarios) {
    const hpm = figures.hpm;
    const others = Math.max(...roles.map((role) => figures[role].othersCpu));
    console.log(`\n### ${scenario.name}\n`);
    const streamHead = scenario.stream ? ' first byte p50 | first byte p99 |' : '';
    console.log(`| target | req/s | p50 | p99 |${streamHead} CPU / request | peak RSS | bench side CPU |`);
    console.log(`|---|---|---|---|${scenario.stream ? '---|---|' : ''}---|---|---|`);
    for (const role of roles) {
      const row = figures[role];
      const isHpm = role === 'hpm';
      const cell = (text: string, key: keyof Figures) => withRatio(text, row[key], hpm[key], isHpm);
      const stream = scenario.stream ? ` ${cell(ms(row.ttfbP50), 'ttfbP50')} | ${cell(ms(row.ttfbP99), 'ttfbP99')} |` : '';
      console.log(
        `| ${roleName(role, scenario.dialect)} | ${cell(row.rps.toFixed(0), 'rps')} | ${cell(ms(row.p50), 'p50')} | ${cell(ms(row.p99), 'p99')} |${stream} ${cell(us(row.cpuUs), 'cpuUs')} | ${cell(mb(row.peakRss), 'peakRss')} | ${pct(row.benchCpu)} |`,
      );
    }
    console.log(`\nOther processes on the machine used up to ${pct(others)} of a core during these loads (median over rounds).`);
  }
  console.log(
    "\nCPU / request: the target process's user + system time (/proc/<pid>/stat) over the load, per request served. First byte: from sending the request to the first byte of its first data: frame. Peak RSS: the target process's highest resident memory, sampled every 100 ms during this scenario's loads. Bench side CPU: the load generator and the mock upstream, in % of one core (both on one CPU: near 100%, the bench side limits the figure).",
  );

  printSummary(report);
  printMemory(report);
  printSequential(report, options);
  printMessages(report, options);
  printProbe(report, options);
  if (report.errors.length) {
    console.log('\nErrors (there must be none):');
    for (const error of report.errors) console.log(`  ${error.slice(0, 400)}`);
  }
}

/** One line per target, one column per scenario: req/s, CPU per request, and the ratio of req/s to hpm's. */
function printSummary(report: RemoteReport): void {
  console.log("\nSummary: req/s (target CPU per request) = ratio of req/s to hpm's\n");
  console.log(`| target | ${report.scenarios.map(({ scenario }) => scenario.name).join(' | ')} |`);
  console.log(`|---|${report.scenarios.map(() => '---|').join('')}`);
  for (const role of roles) {
    const cells = report.scenarios.map(({ figures }) => {
      const row = figures[role];
      return `${kilo(row.rps)} (${us(row.cpuUs)})${role === 'hpm' ? '' : ` = ${ratio(row.rps, figures.hpm.rps)}`}`;
    });
    console.log(`| ${shortNames[role]} | ${cells.join(' | ')} |`);
  }
}

function printMemory(report: RemoteReport): void {
  const hpm = report.targets.find((target) => target.name.startsWith('Express'))!;
  console.log(
    '\nMemory per process: resident set before any request, 1-2 s after start and idle (the lowest over its first 30 s, once V8 has given back what starting grew), and at its highest sampled during the loads above\n',
  );
  console.log('| process | RSS at start | idle RSS | peak RSS |');
  console.log('|---|---|---|---|');
  for (const target of report.targets) {
    const isHpm = target === hpm;
    console.log(
      `| ${target.name} | ${withRatio(mb(target.startRss), target.startRss, hpm.startRss, isHpm)} | ${withRatio(mb(target.idleRss), target.idleRss, hpm.idleRss, isHpm)} | ${withRatio(mb(target.peakRss), target.peakRss, hpm.peakRss, isHpm)} |`,
    );
  }
}

function printSequential(report: RemoteReport, options: RemoteOptions): void {
  console.log(
    `\nSequential: one connection, one request at a time (${options.sequentialSeconds} s per target, ${options.rounds} rounds); the mock's median latency, and what each target adds to it (median; in parentheses, the ratio to what hpm adds)\n`,
  );
  const proxies = roles.filter((role) => role !== 'direct');
  console.log(`| scenario | mock direct | ${proxies.map((role) => `+ ${shortNames[role]}`).join(' | ')} |`);
  console.log(`|---|---|${proxies.map(() => '---|').join('')}`);
  for (const { scenario, p50 } of report.sequential) {
    const added = (role: Role) => p50[role] - p50.direct;
    const cells = proxies.map((role) => {
      const text = `+${ms(added(role))}`;
      return role === 'same' || role === 'translated' ? `${text} (${ratio(added(role), added('hpm'))})` : text;
    });
    console.log(`| ${scenario.name} | ${ms(p50.direct)} | ${cells.join(' | ')} |`);
  }
}

function printMessages(report: RemoteReport, options: RemoteOptions): void {
  console.log(
    `\nAnthropic Messages beside chat: the same request in each dialect, through one dialect-proxy to a chat backend, ${options.connections} connections (${options.seconds} s per dialect, ${options.rounds} rounds). Goal: Messages within 10% of chat.\n`,
  );
  console.log('| scenario | chat req/s | Messages req/s | Messages / chat | chat CPU / request | Messages CPU / request | CPU ratio |');
  console.log('|---|---|---|---|---|---|---|');
  for (const { name, chat, messages } of report.messages) {
    console.log(
      `| ${name} | ${Math.round(chat.rps)} | ${Math.round(messages.rps)} | ${ratio(messages.rps, chat.rps)} | ${Math.round(chat.cpuUs)} us | ${Math.round(messages.cpuUs)} us | ${ratio(messages.cpuUs, chat.cpuUs)} |`,
    );
  }
}

function printProbe(report: RemoteReport, options: RemoteOptions): void {
  const byRole = Object.fromEntries(report.probe.map((row) => [row.role, row]));
  console.log(
    `\nPacing probe: the mock sends a chat stream one event at a time, ${options.probeIntervalMs} ms apart (the role chunk at once, then 4 tokens); chat to a backend that speaks chat, one connection (${options.probeSeconds} s per target, ${options.rounds} rounds). Does each event leave as soon as it arrives?\n`,
  );
  console.log('| target | first byte p50 | first byte p99 | p50 minus direct | p50 minus hpm |');
  console.log('|---|---|---|---|---|');
  for (const row of report.probe) {
    const signed = (value: number) => (value >= 0 ? `+${ms(value)}` : `-${ms(-value)}`);
    console.log(
      `| ${roleName(row.role, 'chat')} | ${ms(row.p50)} | ${ms(row.p99)} | ${row.role === 'direct' ? '' : signed(row.p50 - byRole.direct.p50)} | ${row.role === 'hpm' || row.role === 'direct' ? '' : signed(row.p50 - byRole.hpm.p50)} |`,
    );
  }
}
