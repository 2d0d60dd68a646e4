/** The inspector's stylesheet (served as /inspector.css: the page allows no inline style). */
export const INSPECTOR_CSS: string = `
:root { font-family: system-ui, sans-serif; font-size: 14px; color: #1d2330; background: #f6f7f9; }
body { margin: 0; }
header { display: flex; gap: 12px; align-items: baseline; padding: 10px 18px; background: #fff; border-bottom: 1px solid #dde1e8; }
header .brand { font-weight: 700; color: inherit; text-decoration: none; }
header .source { color: #6b7385; font-family: ui-monospace, monospace; }
header .ro { margin-left: auto; font-size: 12px; padding: 2px 8px; border-radius: 10px; background: #e8eefb; }
main { padding: 12px 18px 40px; max-width: 1200px; }
h1 { font-size: 20px; } h2 { font-size: 16px; }
table { border-collapse: collapse; width: 100%; background: #fff; }
th, td { text-align: left; padding: 5px 8px; border-bottom: 1px solid #eceff3; vertical-align: top; }
th { font-size: 12px; color: #6b7385; font-weight: 600; }
td.num { text-align: right; font-variant-numeric: tabular-nums; }
td.data { max-width: 640px; overflow-wrap: anywhere; }
td.data summary { cursor: pointer; }
pre { white-space: pre-wrap; overflow-wrap: anywhere; margin: 4px 0; font-size: 12px; }
code { font-size: 12px; }
.pager { margin: 8px 0; display: flex; gap: 14px; }
.facts { display: grid; grid-template-columns: max-content 1fr; gap: 3px 14px; background: #fff; padding: 10px 14px; border: 1px solid #dde1e8; border-radius: 8px; }
.facts dt { color: #6b7385; } .facts dd { margin: 0; }
.empty, .error { color: #6b7385; }
.badge { font-size: 11px; padding: 1px 6px; border-radius: 10px; background: #e3e7ee; }
.badge.error { background: #fde0e0; color: #c62828; }
.message { background: #fff; border: 1px solid #dde1e8; border-radius: 10px; padding: 10px 14px; margin: 12px 0; display: flex; flex-direction: column; gap: 8px; }
.message.user { border-color: #2f6fde; }
.message .role { font-size: 11px; text-transform: uppercase; color: #6b7385; letter-spacing: .05em; }
.step { font-size: 11px; color: #6b7385; border-top: 1px solid #eceff3; padding-top: 4px; }
.chunk.text { white-space: pre-wrap; }
.chunk.thinking { color: #6b7385; border-left: 3px solid #dde1e8; padding-left: 10px; }
.chunk.thinking summary { cursor: pointer; font-style: italic; }
.chunk.thinking .body { white-space: pre-wrap; }
.call { border: 1px solid #dde1e8; border-radius: 8px; padding: 6px 10px; background: #fafbfc; margin: 4px 0; }
.call .tool-name { font-weight: 600; font-family: ui-monospace, monospace; }
.call.done .badge { background: #dcf2dd; color: #2e7d32; } .call.error .badge { background: #fde0e0; color: #c62828; }
.call .progress { color: #6b7385; }
.chunk.error { border: 1px solid #f3b4b4; background: #fff5f5; border-radius: 8px; padding: 8px 10px; }
.chunk.error .error-title { color: #c62828; font-weight: 600; }
.chunk.system { display: flex; gap: 8px; align-items: center; color: #8a6d00; font-size: 12px; }
.chunk.system::before, .chunk.system::after { content: ""; flex: 1; border-top: 1px dashed #d8c890; }
.chunk.system .kind { text-transform: uppercase; font-weight: 600; }
.chunk.steering { border-left: 3px solid #2f6fde; padding-left: 10px; }
.chunk.steering .who { font-size: 11px; color: #2f6fde; }
.chunk.custom, .chunk.data, .chunk.file, .chunk.source { font-size: 12px; color: #6b7385; }
`;
