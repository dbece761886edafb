/**
 * Saved credentials: named profiles in one JSON file readable only by its owner (mode 0600, in a
 * directory of mode 0700), at `$XDG_CONFIG_HOME/partner-sdk/profiles.json`, by default
 * `~/.config/partner-sdk/profiles.json`.
 *
 * @module
 */

import { chmod, mkdir, readFile, rename, stat, writeFile } from 'node:fs/promises';
import { homedir } from 'node:os';
import { dirname, join } from 'node:path';
import { UsageError } from './errors';

/** One profile: where the API is and how to log in. */
export interface Profile {
  baseUrl?: string;
  clientId?: string;
  clientSecret?: string;
  clientToken?: string;
  sellerToken?: string;
}

interface ProfilesFile {
  profiles: Record<string, Profile>;
}

/** The default profile's name. */
export const DEFAULT_PROFILE = 'default';

const NAME = /^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$/;

/** Where the profiles file is, from the environment the command runs in. */
export function profilesPath(env: NodeJS.ProcessEnv): string {
  const config = env.XDG_CONFIG_HOME || join(env.HOME || homedir(), '.config');
  return join(config, 'partner-sdk', 'profiles.json');
}

/** Checks a profile name (letters, digits, `_`, `.`, `-`; up to 64). */
export function profileName(name: string): string {
  if (!NAME.test(name)) {
    throw new UsageError(
      '--profile must be letters, digits, "_", "." or "-" (up to 64 characters)',
    );
  }
  return name;
}

async function readAll(env: NodeJS.ProcessEnv): Promise<ProfilesFile> {
  const path = profilesPath(env);
  let text: string;
  try {
    // Like ssh with its keys: a file others can read is refused rather than used.
    const { mode } = await stat(path);
    if ((mode & 0o077) !== 0 && process.platform !== 'win32') {
      throw new UsageError(
        `${path} can be read by other users (mode ${(mode & 0o777).toString(8)}): chmod 600 it`,
      );
    }
    text = await readFile(path, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return { profiles: {} };
    throw error;
  }
  try {
    const parsed = JSON.parse(text) as ProfilesFile;
    return { profiles: { ...parsed.profiles } };
  } catch {
    throw new UsageError(`${path} is not valid JSON: fix it or remove it and log in again`);
  }
}

/**
 * The profile `name`, or the default one when it exists and no name is given. A name given but
 * not saved is a usage error.
 */
export async function readProfile(
  env: NodeJS.ProcessEnv,
  name: string | undefined,
): Promise<Profile | undefined> {
  const { profiles } = await readAll(env);
  if (name === undefined) return profiles[DEFAULT_PROFILE];
  const profile = profiles[profileName(name)];
  if (!profile) {
    throw new UsageError(`no profile "${name}": run partner-sdk login --profile ${name}`);
  }
  return profile;
}

/** Saves (or replaces) one profile; the file is written whole, mode 0600, then moved in place. */
export async function saveProfile(
  env: NodeJS.ProcessEnv,
  name: string,
  profile: Profile,
): Promise<string> {
  const path = profilesPath(env);
  const all = await readAll(env);
  all.profiles[profileName(name)] = profile;
  await mkdir(dirname(path), { recursive: true, mode: 0o700 });
  // The directory is the CLI's own: one made earlier (by hand, another tool, a umask) that others
  // can list or write into is made private before a secret goes in it.
  if (process.platform !== 'win32') await chmod(dirname(path), 0o700);
  const temporary = `${path}.${process.pid}.tmp`;
  await writeFile(temporary, `${JSON.stringify(all, null, 2)}\n`, { mode: 0o600 });
  // The mode given to writeFile is masked by the umask; set it exactly.
  await chmod(temporary, 0o600);
  await rename(temporary, path);
  return path;
}
