/**
 * Adding a channel's arguments, environment and files to a road's launch. Pure.
 *
 * @module
 */
import type { Launch, LaunchFile } from "../adapter.ts";

/** What a channel adds to a launch: arguments after the road's own options, variables, files. */
export interface ChannelAddition {
  /** Arguments placed right after the binary (before extra and road arguments). */
  args?: readonly string[];
  env?: Readonly<Record<string, string>>;
  files?: readonly LaunchFile[];
}

/** `launch` with the channel's additions (its argv[0] stays the binary). */
export function withChannel(launch: Launch, add: ChannelAddition): Launch {
  const args = add.args ?? [];
  const insert = (argv: string[]) => [argv[0], ...args, ...argv.slice(1)];
  return {
    ...launch,
    argv: insert(launch.argv),
    ...(add.env ? { env: { ...launch.env, ...add.env } } : {}),
    ...(add.files ? { files: [...(launch.files ?? []), ...add.files] } : {}),
    ...(launch.prepare && args.length
      ? {
        prepare: {
          argv: launch.prepare.argv,
          finish: (stdout: string) => insert(launch.prepare!.finish(stdout)),
        },
      }
      : {}),
  };
}
