import { parse as parseYaml } from 'yaml';
import type { ApiImportRequest } from '@portico/model';
import { IMPORT_INVALID_FILE, IMPORT_INVALID_JSON } from '@portico/model';
import type { OutboundPolicy } from '@portico/outbound';
import { OutboundError, createOutboundPolicy, outboundFetch } from '@portico/outbound';
import { IMPORT_FETCH_FAILED, IMPORT_URL_SCHEME, importRefused, importTooLarge } from './apis.errors.js';

/**
 * Where an import's file comes from and how much of it is read: the text of the request, or a URL
 * read through the outbound-URL guard; within the same size limit either way.
 */

type Json = Record<string, unknown>;

/** Where an import comes from: the options of the dialogs, or a definition object sent as the body. */
export type ImportSource = { request: ApiImportRequest } | { document: Json };

export interface ImportLimits {
  /** How long a URL may take to answer, redirects included (default 30 s). */
  fetchTimeoutMs: number;
  /** Largest file imported, sent in the request or read from a URL (default 5 MB). */
  maxBytes: number;
}

export const DEFAULT_IMPORT_LIMITS: ImportLimits = { fetchTimeoutMs: 30_000, maxBytes: 5 * 1024 * 1024 };

/**
 * The body limit of the import calls: a file of `maxBytes` fits, even as a JSON string whose line
 * breaks and quotes are escaped; the file itself is then measured against `maxBytes`.
 */
export const importBodyLimit = (limits: ImportLimits) => Math.ceil(limits.maxBytes * 1.5) + 64 * 1024;

/** Where the detail of a refused URL goes: the server log, never the answer. */
export interface ImportLog {
  warn(details: object, message: string): void;
}

const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Parses a file's text: JSON when it looks like JSON, YAML otherwise; it must hold an object. */
export function parseDocument(text: string): Json {
  const trimmed = text.trim();
  let value: unknown;
  if (trimmed.startsWith('{') || trimmed.startsWith('[')) {
    try {
      value = JSON.parse(trimmed);
    } catch {
      throw importRefused(IMPORT_INVALID_JSON);
    }
  } else {
    try {
      value = parseYaml(trimmed, { maxAliasCount: 100 });
    } catch {
      throw importRefused(IMPORT_INVALID_FILE);
    }
  }
  if (!isObject(value)) throw importRefused(IMPORT_INVALID_FILE);
  return value;
}

/**
 * Reads an http(s) URL through the outbound-URL guard, within the time and size limits. Every failure
 * (refused address, closed or silent port, error status) gives the user the same message.
 */
export async function fetchDocument(
  address: string,
  limits: ImportLimits,
  policy: OutboundPolicy = createOutboundPolicy(),
  log?: ImportLog,
): Promise<string> {
  try {
    const response = await outboundFetch(address, {
      policy,
      maxBytes: limits.maxBytes,
      timeoutMs: limits.fetchTimeoutMs,
      accept: 'application/json, application/yaml, text/yaml, */*;q=0.8',
    });
    if (response.status < 200 || response.status > 299) {
      log?.warn({ url: response.url, status: response.status }, 'import from a URL: error status');
      throw importRefused(IMPORT_FETCH_FAILED);
    }
    return response.text();
  } catch (error) {
    if (!(error instanceof OutboundError)) throw error;
    log?.warn({ failure: error.failure, detail: error.detail }, 'import from a URL refused');
    if (error.failure === 'TOO_LARGE') throw importTooLarge(limits.maxBytes);
    if (error.failure === 'SCHEME' || error.failure === 'INVALID_URL') throw importRefused(IMPORT_URL_SCHEME);
    throw importRefused(IMPORT_FETCH_FAILED);
  }
}

/** The text of an import, from the request or its URL, refused past the size limit. */
export async function importText(
  request: ApiImportRequest,
  limits: ImportLimits,
  policy?: OutboundPolicy,
  log?: ImportLog,
): Promise<string> {
  if (request.type === 'URL') return fetchDocument(request.payload, limits, policy, log);
  if (Buffer.byteLength(request.payload, 'utf8') > limits.maxBytes) throw importTooLarge(limits.maxBytes);
  return request.payload;
}

/** A definition sent as the body is held to the same limit as a file, measured as the JSON it was. */
export function checkDocumentSize(document: Json, limits: ImportLimits): string {
  const text = JSON.stringify(document);
  if (Buffer.byteLength(text, 'utf8') > limits.maxBytes) throw importTooLarge(limits.maxBytes);
  return text;
}
