import { Ajv } from 'ajv';
import type { AnySchemaObject, ErrorObject, Options, ValidateFunction } from 'ajv';
import { Ajv2019 } from 'ajv/dist/2019.js';
import { Ajv2020 } from 'ajv/dist/2020.js';
import draft06MetaSchema from 'ajv/dist/refs/json-schema-draft-06.json' with { type: 'json' };
import AjvDraft04 from 'ajv-draft-04';
import addFormats from 'ajv-formats';
import { z } from 'zod';
import { definePolicy, deny } from '../policy.js';
import { renderTemplate } from '../template.js';

/** The error key of a request body that does not match the schema (one of the spec's template keys). */
export const REQUEST_VALIDATION_INVALID = 'REQUEST_VALIDATION_INVALID';
/** The error key of a backend response that does not match the schema. */
export const RESPONSE_VALIDATION_INVALID = 'RESPONSE_VALIDATION_INVALID';

const AJV_OPTIONS: Options = { allErrors: false, strict: false, logger: false };

/** A validator for the schema's dialect (`$schema`): draft-04, -06, -07 (the default), 2019-09 or 2020-12. */
function compile(schema: AnySchemaObject): ValidateFunction {
  const dialect = typeof schema.$schema === 'string' ? schema.$schema : '';
  let ajv;
  if (dialect.includes('draft-04')) ajv = new AjvDraft04.default(AJV_OPTIONS);
  else if (dialect.includes('2020-12')) ajv = new Ajv2020(AJV_OPTIONS);
  else if (dialect.includes('2019-09')) ajv = new Ajv2019(AJV_OPTIONS);
  else {
    ajv = new Ajv(AJV_OPTIONS);
    ajv.addMetaSchema(draft06MetaSchema);
  }
  addFormats.default(ajv);
  return ajv.compile(schema);
}

/** Why a schema text cannot be used, or undefined when it can. */
function schemaProblem(text: string): string | undefined {
  let schema: unknown;
  try {
    schema = JSON.parse(text);
  } catch {
    return 'Must be a JSON document';
  }
  if (typeof schema !== 'object' || schema === null || Array.isArray(schema))
    return 'Must be a JSON schema object';
  try {
    compile(schema as AnySchemaObject);
    return undefined;
  } catch (error) {
    return `Invalid JSON schema: ${(error as Error).message}`;
  }
}

export const JsonValidationConfig = z.object({
  scope: z
    .enum(['REQUEST', 'RESPONSE'])
    .default('REQUEST')
    .describe("REQUEST: checks the client's body; RESPONSE: checks the backend's body"),
  schema: z
    .string()
    .superRefine((text, ctx) => {
      const problem = schemaProblem(text);
      if (problem) ctx.addIssue({ code: 'custom', message: problem });
    })
    .describe('The JSON schema (draft-04, -06, -07, 2019-09 or 2020-12, by its $schema), as text'),
  errorMessage: z
    .string()
    .optional()
    .describe('Message of the refusal (templated); by default, what is wrong with the request body'),
  statusCode: z
    .number()
    .int()
    .min(400)
    .max(599)
    .optional()
    .describe('Status of the refusal: by default 400 for the request, 500 for the response'),
});
export type JsonValidationConfig = z.infer<typeof JsonValidationConfig>;

/** Compiled once per configuration object, never per request. */
const validators = new WeakMap<JsonValidationConfig, ValidateFunction>();

function validatorOf(config: JsonValidationConfig): ValidateFunction {
  let validate = validators.get(config);
  if (!validate) {
    validate = compile(JSON.parse(config.schema) as AnySchemaObject);
    validators.set(config, validate);
  }
  return validate;
}

const describeError = (e: ErrorObject) => `${e.instancePath || '/'} ${e.message ?? 'is invalid'}`;

/** What is wrong with the body, or undefined when it is valid. */
function problemOf(config: JsonValidationConfig, body: Buffer): string | undefined {
  let data: unknown;
  try {
    data = JSON.parse(body.toString('utf8'));
  } catch {
    return body.length === 0 ? 'a JSON body is required' : 'the body is not valid JSON';
  }
  const validate = validatorOf(config);
  if (validate(data)) return undefined;
  return (validate.errors ?? []).map(describeError).join(', ') || 'does not match the schema';
}

export const jsonValidation = definePolicy({
  id: 'json-validation',
  name: 'JSON validation',
  description: 'Checks the JSON body of the request or of the response against a JSON schema.',
  configSchema: JsonValidationConfig,
  writesNoInputIntoHeaders: true,
  onRequestContent(ctx, config, body) {
    if (config.scope !== 'REQUEST') return body;
    const problem = problemOf(config, body);
    if (problem === undefined) return body;
    return deny(
      config.statusCode ?? 400,
      REQUEST_VALIDATION_INVALID,
      config.errorMessage !== undefined
        ? renderTemplate(config.errorMessage, ctx)
        : `Invalid request content: ${problem}`,
    );
  },
  onResponseContent(ctx, config, _response, body) {
    if (config.scope !== 'RESPONSE') return body;
    if (problemOf(config, body) === undefined) return body;
    // The backend's fault: the client is not told the details.
    return deny(
      config.statusCode ?? 500,
      RESPONSE_VALIDATION_INVALID,
      config.errorMessage !== undefined
        ? renderTemplate(config.errorMessage, ctx)
        : 'Invalid response content',
    );
  },
});
