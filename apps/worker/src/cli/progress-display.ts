import cliProgress from 'cli-progress';

/** One counter of a {@link ProgressDisplay}. */
export interface ProgressCounter {
  readonly value: number;
  increment(by: number): void;
  update(value: number): void;
  /** Done: the total becomes what was counted, whatever the estimate was. */
  finish(): void;
}

/** How often a counter may print a plain line while it moves. */
const PLAIN_LINE_INTERVAL_MS = 1_000;

/**
 * Progress of a few counters: bars (cli-progress) on a terminal, and plain lines
 * (`label: value/total unit`) when the output is a file or a pipe, where bars would be a stream
 * of control characters. A plain counter prints at most one line a second while it moves, and
 * always a last line when it finishes.
 */
export class ProgressDisplay {
  private readonly bars: cliProgress.MultiBar | null;
  private readonly counters: ProgressCounter[] = [];

  constructor(
    private readonly stream: NodeJS.WriteStream = process.stdout,
    private readonly labelWidth = 18,
  ) {
    this.bars = stream.isTTY
      ? new cliProgress.MultiBar(
          {
            stream,
            format: '{label} [{bar}] {percentage}% | {value}/{total} {unit}',
            barsize: 30,
            // The cursor stays visible: Ctrl-C must not leave the terminal without one.
            hideCursor: false,
          },
          cliProgress.Presets.shades_classic,
        )
      : null;
  }

  add(label: string, total: number, unit: string): ProgressCounter {
    const counter = this.bars
      ? this.barCounter(this.bars, label, total, unit)
      : this.plainCounter(label, total, unit);
    this.counters.push(counter);
    return counter;
  }

  /** A line of text that does not tear the bars apart. */
  log(line: string): void {
    if (this.bars) this.bars.log(`${line}\n`);
    else this.stream.write(`${line}\n`);
  }

  /** Finishes every counter that is not finished, and leaves the terminal as it was. */
  stop(): void {
    for (const counter of this.counters) counter.finish();
    this.bars?.stop();
  }

  private barCounter(
    bars: cliProgress.MultiBar,
    label: string,
    total: number,
    unit: string,
  ): ProgressCounter {
    const bar = bars.create(total, 0, { label: label.padEnd(this.labelWidth), unit });
    let value = 0;
    let finished = false;
    return {
      get value() {
        return value;
      },
      increment(by) {
        value += by;
        if (value > bar.getTotal()) bar.setTotal(value);
        bar.update(value);
      },
      update(next) {
        value = next;
        if (value > bar.getTotal()) bar.setTotal(value);
        bar.update(value);
      },
      finish() {
        if (finished) return;
        finished = true;
        bar.setTotal(value);
        bar.update(value);
      },
    };
  }

  private plainCounter(label: string, estimate: number, unit: string): ProgressCounter {
    const stream = this.stream;
    let value = 0;
    let total = estimate;
    let printedAt = 0;
    let printed = '';
    let finished = false;
    const print = (force: boolean) => {
      const line = `${label}: ${value}/${Math.max(total, value)} ${unit}`;
      const now = Date.now();
      if (line === printed || (!force && now - printedAt < PLAIN_LINE_INTERVAL_MS)) return;
      printedAt = now;
      printed = line;
      stream.write(`${line}\n`);
    };
    return {
      get value() {
        return value;
      },
      increment(by) {
        value += by;
        print(false);
      },
      update(next) {
        value = next;
        print(false);
      },
      finish() {
        if (finished) return;
        finished = true;
        total = value;
        print(true);
      },
    };
  }
}
