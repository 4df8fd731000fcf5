import { buttonClass } from "@/components/ui/button";
import { optionsOf, type ComposeFieldSpec, type ComposeFormSpec, type ComposeValues, type SourceLists } from "@/lib/protocols/compose-spec";
import { controlClass, describedBy, FieldNote, TextField } from "./field";

interface Props {
  spec: ComposeFormSpec;
  values: ComposeValues;
  lists: SourceLists;
  error: (field: string) => string | undefined;
  onChange: (name: string, value: string) => void;
  onBlur: (name: string) => void;
  onUseTemplate: () => void;
}

function TextArea({ f, value, error, onChange, onBlur }: { f: ComposeFieldSpec; value: string; error?: string; onChange: (v: string) => void; onBlur: () => void }) {
  const id = `compose-${f.name}`;
  return (
    <div className="space-y-1">
      <label htmlFor={id} className="block text-sm font-medium text-zinc-700 dark:text-zinc-300">{f.label}</label>
      <textarea
        id={id}
        value={value}
        onChange={(e) => onChange(e.target.value)}
        onBlur={onBlur}
        rows={14}
        spellCheck={false}
        autoCapitalize="off"
        aria-invalid={error ? true : undefined}
        aria-describedby={describedBy(id, f.hint, error)}
        className={controlClass(error, "font-mono text-xs leading-relaxed")}
      />
      <FieldNote id={id} hint={f.hint} error={error} />
    </div>
  );
}

/** A protocol's fields, as its compose form spec lists them: one-line fields first, then the body. */
export function ProtocolFields({ spec, values, lists, error, onChange, onBlur, onUseTemplate }: Props) {
  const type = spec.template ? (values[spec.template.typeField] ?? "").trim() : "";
  const template = spec.template?.of(type, lists) ?? null;
  const lines = spec.fields.filter((f) => f.kind === "line");
  const texts = spec.fields.filter((f) => f.kind === "text");
  return (
    <>
      <div className="grid gap-4 sm:grid-cols-2">
        {lines.map((f) => (
          <TextField
            key={f.name}
            id={`compose-${f.name}`}
            label={f.label}
            value={values[f.name] ?? ""}
            onChange={(v) => onChange(f.name, v)}
            onBlur={() => onBlur(f.name)}
            options={optionsOf(f, lists)}
            hint={f.hint}
            placeholder={f.placeholder ?? (f.optional ? "optional" : undefined)}
            error={error(f.name)}
            mono
          />
        ))}
      </div>
      {spec.template ? (
        <button type="button" onClick={onUseTemplate} disabled={template === null} className={buttonClass("ghost", "py-1 text-xs")}>
          {template === null ? "No template for this type" : `Use the ${type} template`}
        </button>
      ) : null}
      {texts.map((f) => (
        <TextArea key={f.name} f={f} value={values[f.name] ?? ""} error={error(f.name)} onChange={(v) => onChange(f.name, v)} onBlur={() => onBlur(f.name)} />
      ))}
    </>
  );
}
