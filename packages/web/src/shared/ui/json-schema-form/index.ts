export { JsonSchemaForm } from './json-schema-form';
export type { JsonObject, JsonSchema, SchemaIssue } from './schema';
export { defaultValue, isValid, validate, withDefaults } from './schema';
