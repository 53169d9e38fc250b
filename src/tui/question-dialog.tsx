import { Box, Text, useInput } from "ink";
import { useRef, useState } from "react";
import type { PersonQuestion, QuestionField, QuestionReply } from "../contracts/question.js";
import { checkAnswer } from "../mcp/elicit.js";
import { useArmed } from "./armed.js";

type Value = string | number | boolean | string[];

/**
 * A question for the person that is not an approval (an MCP server's form): who asks and why,
 * then its fields one at a time, each checked against the form before the next. `a` answers,
 * `d` declines, Esc walks away (cancel). Typed text goes to the asker only.
 */
export function QuestionDialog({
  question,
  onAnswer,
  armDelayMs,
}: {
  question: PersonQuestion;
  onAnswer: (reply: QuestionReply) => void;
  armDelayMs?: number;
}) {
  const { armed, ready } = useArmed(armDelayMs);
  // -1: the first screen (answer or decline); then the index of the field being asked.
  // Read by the key handler through refs: keys can come faster than renders (a paste, then Enter).
  const [at, setAtState] = useState(-1);
  const [text, setTextState] = useState("");
  const [picked, setPickedState] = useState<string[]>([]);
  const live = useRef({ at: -1, text: "", picked: [] as string[] });
  const setAt = (n: number) => {
    live.current.at = n;
    setAtState(n);
  };
  const setText = (next: (t: string) => string) => {
    live.current.text = next(live.current.text);
    setTextState(live.current.text);
  };
  const setPicked = (next: (p: string[]) => string[]) => {
    live.current.picked = next(live.current.picked);
    setPickedState(live.current.picked);
  };
  const [problem, setProblem] = useState<string>();
  const values = useRef<Record<string, Value>>({});
  const field = at >= 0 ? question.fields[at] : undefined;

  const next = (value: Value | undefined) => {
    const at = live.current.at;
    const field = question.fields[at];
    if (field && value !== undefined && value !== "") {
      const checked = checkAnswer({ ...question, fields: [field] }, { [field.name]: value });
      if (!checked.ok) return setProblem(checked.problems[0]);
      values.current[field.name] = checked.values[field.name] as Value;
    } else if (field?.required) return setProblem(`${field.label}: needed`);
    setProblem(undefined);
    setText(() => "");
    setPicked(() => []);
    if (at + 1 >= question.fields.length) onAnswer({ action: "accept", values: values.current });
    else setAt(at + 1);
  };

  useInput((input, key) => {
    if (!ready.current) return;
    const { at, text, picked } = live.current;
    const field = at >= 0 ? question.fields[at] : undefined;
    if (key.escape) return onAnswer({ action: "cancel" });
    if (!field) {
      if (input === "d") onAnswer({ action: "decline" });
      else if (input === "a") question.fields.length === 0 ? onAnswer({ action: "accept", values: {} }) : setAt(0);
      return;
    }
    if (field.kind === "boolean") {
      if (input === "y") next(true);
      else if (input === "n") next(false);
      else if (key.return) next(field.default as boolean | undefined);
      return;
    }
    if (field.kind === "choice" || field.kind === "choices") {
      const option = field.options?.[Number(input) - 1];
      if (field.kind === "choice") {
        if (option) next(option.value);
        else if (key.return) next(field.default as string | undefined);
      } else if (option)
        setPicked((p) => (p.includes(option.value) ? p.filter((v) => v !== option.value) : [...p, option.value]));
      else if (key.return) next(picked.length > 0 ? picked : undefined);
      return;
    }
    if (key.return) next(text === "" && field.default !== undefined ? String(field.default) : text);
    else if (key.backspace || key.delete) setText((t) => t.slice(0, -1));
    else if (input && !key.ctrl && !key.meta) setText((t) => t + input);
  });

  return (
    <Box flexDirection="column" borderStyle="round" borderColor="cyan" paddingX={1}>
      <Text bold color="cyan">
        {question.from} asks you
      </Text>
      <Text>{question.message || "(no message)"}</Text>
      {question.note ? <Text dimColor>{question.note}</Text> : null}
      {!armed ? <Text dimColor>the choices open in a moment; keys typed until then are ignored</Text> : null}
      <Box flexDirection="column" marginTop={1} display={armed ? "flex" : "none"}>
        {field ? (
          <FieldPrompt field={field} text={text} picked={picked} n={at + 1} of={question.fields.length} />
        ) : (
          <>
            {question.fields.map((f) => (
              <Text key={f.name} dimColor>
                {" "}
                {f.label}
                {f.required ? "" : " (optional)"}
              </Text>
            ))}
            <Text>
              <Text bold>a</Text> answer <Text bold>d</Text> decline <Text dimColor>Esc leave it unanswered</Text>
            </Text>
          </>
        )}
        {problem ? <Text color="red">{problem}</Text> : null}
      </Box>
    </Box>
  );
}

function FieldPrompt(props: { field: QuestionField; text: string; picked: string[]; n: number; of: number }) {
  const { field } = props;
  const heading = `${props.n}/${props.of} ${field.label}${field.required ? "" : " (optional)"}`;
  const fallback = field.default !== undefined ? ` [${String(field.default)}]` : "";
  return (
    <Box flexDirection="column">
      <Text bold>{heading}</Text>
      {field.description ? <Text dimColor>{field.description}</Text> : null}
      {field.kind === "boolean" ? (
        <Text>
          <Text bold>y</Text> yes <Text bold>n</Text> no{fallback}
        </Text>
      ) : field.kind === "choice" || field.kind === "choices" ? (
        <>
          {(field.options ?? []).map((o, i) => (
            <Text key={o.value}>
              <Text bold>{i + 1}</Text>{" "}
              {props.picked.includes(o.value) ? "[x] " : field.kind === "choices" ? "[ ] " : ""}
              {o.label}
            </Text>
          ))}
          <Text dimColor>{field.kind === "choices" ? "numbers toggle, Enter when done" : `a number${fallback}`}</Text>
        </>
      ) : (
        <Text>
          {"> "}
          {props.text}
          <Text dimColor>{props.text === "" ? fallback : ""}▏</Text>
        </Text>
      )}
    </Box>
  );
}
