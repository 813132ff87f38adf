// What VS Code's JSON engine shows for a quiz: node hover.js SCHEMA QUIZ KEY... prints the hover
// of each key, the completions offered for the first "type" value, and the validation messages.
const fs = require("fs");
const path = require("path");
const { getLanguageService, TextDocument } = require("vscode-json-languageservice");
const [schemaPath, quizPath, ...keys] = process.argv.slice(2);
const schemaUri = "file://" + path.resolve(schemaPath);
const service = getLanguageService({
  schemaRequestService: (uri) => Promise.resolve(fs.readFileSync(uri.replace("file://", ""), "utf8")),
});
service.configure({ allowComments: false, validate: true, schemas: [{ uri: schemaUri, fileMatch: ["*.json"] }] });
const text = fs.readFileSync(quizPath, "utf8");
const doc = TextDocument.create("file://" + path.resolve(quizPath), "json", 1, text);
const json = service.parseJSONDocument(doc);
(async () => {
  const out = { hovers: {}, typeCompletions: [], diagnostics: [] };
  for (const key of keys) {
    const offset = text.indexOf(`"${key}"`) + 2;
    const hover = await service.doHover(doc, doc.positionAt(offset), json);
    out.hovers[key] = hover ? hover.contents.map((c) => (typeof c === "string" ? c : c.value)).join("\n") : null;
  }
  const typeValue = text.indexOf('"type": "') + '"type": "'.length;
  const completions = await service.doComplete(doc, doc.positionAt(typeValue), json);
  out.typeCompletions = completions.items.map((i) => ({ label: i.label, doc: i.documentation && (i.documentation.value || i.documentation) }));
  out.diagnostics = (await service.doValidation(doc, json)).map((d) => d.message);
  console.log(JSON.stringify(out, null, 1));
})();
