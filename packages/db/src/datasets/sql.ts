/**
 * SQL built only through a tagged template (issue 28): in sql`…`, every `${value}` becomes a bound
 * parameter ($1…$n, numbered when the statement runs), a nested sql`…` fragment is spliced in as
 * SQL, and a table or column name enters only through ident(), which takes nothing but the branded,
 * quoted names dataset-table.ts makes from ids. No string ever becomes SQL text on its
 * way here, so a statement cannot be concatenated from what a user typed; the one place that hands
 * the text to a driver is sql-runner.ts.
 */

/**
 * A quoted name made from ids by dataset-table.ts (datasetTable, fieldColumn, …), never from user
 * text: `"dataset_rows"."ds_…"`, `"f_…"`, each part lowercase letters, digits and `_`.
 */
export type SqlIdentifier = string & { readonly __brand: 'SqlIdentifier' };

/** A statement or a piece of one: its text with $n placeholders and the values they stand for. */
class SqlFragment {
  // Private: a fragment is nominal, so only this module makes one (sql``, ident, join, …).
  readonly #texts: readonly string[];
  readonly #values: readonly unknown[];

  private constructor(texts: readonly string[], values: readonly unknown[]) {
    this.#texts = texts;
    this.#values = values;
  }

  /** The text with one `$n` per value, in order. */
  get text(): string {
    let text = this.#texts[0] ?? '';
    for (let index = 1; index < this.#texts.length; index++) text += `$${index}${this.#texts[index]}`;
    return text;
  }

  get values(): readonly unknown[] {
    return this.#values;
  }

  /** Texts and values interleaved; a fragment among the values is spliced in as SQL. */
  static of(strings: readonly string[], values: readonly unknown[]): SqlFragment {
    const texts = [strings[0] ?? ''];
    const bound: unknown[] = [];
    values.forEach((value, index) => {
      const next = strings[index + 1] ?? '';
      if (value instanceof SqlFragment) {
        const [first = '', ...rest] = value.#texts;
        texts[texts.length - 1] += first;
        bound.push(...value.#values);
        texts.push(...rest);
        texts[texts.length - 1] += next;
      } else {
        bound.push(value);
        texts.push(next);
      }
    });
    return new SqlFragment(texts, bound);
  }

  /** SQL text that holds no value: only this module's own names and numbers become it. */
  static text(text: string): SqlFragment {
    return new SqlFragment([text], []);
  }
}

export type { SqlFragment };

/** sql`SELECT … WHERE id = ${id}`: values bound as parameters, nested fragments spliced in. */
export function sql(strings: TemplateStringsArray, ...values: unknown[]): SqlFragment {
  return SqlFragment.of(strings, values);
}

const QUOTED_NAME = /^"[a-z_][a-z0-9_]*"(\."[a-z_][a-z0-9_]*")*$/u;

/** A name in SQL, as quoted as datasetTable() and fieldColumn() make it: `"dataset_rows"."ds_…"`. */
export function ident(name: SqlIdentifier): SqlFragment {
  // The brand says the name was made from ids; a string cast past it still never reaches the SQL.
  if (!QUOTED_NAME.test(name)) throw new Error(`Not a dataset name: ${JSON.stringify(name)}`);
  return SqlFragment.text(name);
}

/** A whole number written into the text, for the few places SQL takes no parameter (FETCH n). */
export function sqlInteger(value: number): SqlFragment {
  if (!Number.isSafeInteger(value)) throw new Error(`Not a whole number: ${value}`);
  return SqlFragment.text(String(value));
}

/** Fragments one after the other with `separator` between them (`, ` unless given). */
export function join(fragments: readonly SqlFragment[], separator: SqlFragment = sql`, `): SqlFragment {
  const values = fragments.flatMap((fragment, index) => (index === 0 ? [fragment] : [separator, fragment]));
  return SqlFragment.of(new Array<string>(values.length + 1).fill(''), values);
}
