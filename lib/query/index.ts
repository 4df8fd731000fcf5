export { parseQuery, QueryError, FIELDS, IS_VALUES, HAS_VALUES } from "./parse";
export type { Term, Field, TextField } from "./parse";
