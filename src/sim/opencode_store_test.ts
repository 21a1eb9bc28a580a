import { deepStrictEqual as assertEquals, throws } from "node:assert/strict";
import {
  ImportError,
  loadSession,
  requestHistory,
  sessionModel,
  storeSession,
  turnMessageId,
  validateExport,
} from "./opencode_store.ts";

const ID = "ses_test00000000000000000001";

function exportDoc(): Record<string, unknown> {
  return {
    info: {
      id: ID,
      slug: "t",
      title: "T",
      directory: "/x",
      version: "1.18.33",
      time: { created: 1, updated: 2 },
    },
    messages: [{
      info: {
        id: "msg_1",
        sessionID: ID,
        role: "user",
        time: { created: 1 },
        agent: "build",
        model: { providerID: "opencode", modelID: "big-pickle" },
      },
      parts: [{ id: "prt_1", sessionID: ID, messageID: "msg_1", type: "text", text: "first" }],
    }],
  };
}

Deno.test("validateExport: accepts the minimal document and finds the first user message", () => {
  const s = validateExport(exportDoc());
  assertEquals([s.id, s.firstMessage, s.messages], [ID, "first", 1]);
});

Deno.test("validateExport: names a missing key by path like the real import", () => {
  const d = exportDoc();
  delete (d.info as Record<string, unknown>).slug;
  throws(() => validateExport(d), new ImportError('Missing key at ["slug"]'));
  const m = exportDoc();
  // deno-lint-ignore no-explicit-any
  delete (m.messages as any)[0].info.model;
  throws(() => validateExport(m), new ImportError('Missing key at ["model"]'));
});

Deno.test("storeSession / loadSession round-trip in a real temp dir", () => {
  const dir = Deno.makeTempDirSync();
  try {
    storeSession(dir, exportDoc(), "/cwd");
    const s = loadSession(dir, ID)!;
    assertEquals([s.directory, s.firstMessage], ["/cwd", "first"]);
    assertEquals(loadSession(dir, "ses_missing"), null);
    assertEquals(loadSession(dir, "../etc/passwd"), null);
  } finally {
    Deno.removeSync(dir, { recursive: true });
  }
});

Deno.test("a turn's request carries only messages whose ids sort before the turn's", () => {
  const s = { ...validateExport(exportDoc()), data: null };
  const turn = turnMessageId();
  // "msg_1" sorts before any time-ordered id ("msg_" + 12 hex digits); a random one may not.
  assertEquals(requestHistory(s, turn).map((m) => m.text), ["first"]);
  const late = { ...s, list: [{ ...s.list[0], id: "msg_zzzz" }] };
  assertEquals(requestHistory(late, turn), []);
});

Deno.test("opening a session adopts its model only from a primary agent's message", () => {
  const s = { ...validateExport(exportDoc()), data: null };
  assertEquals(sessionModel(s, null, "mine/default"), "opencode/big-pickle");
  const other = { ...s, list: [{ ...s.list[0], agent: "uuldana-handoff" }] };
  assertEquals(sessionModel(other, null, "mine/default"), "mine/default");
  assertEquals(sessionModel(other, "cli/model", "mine/default"), "cli/model");
});
