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
.chunk.error .next-step { margin-top: 4px; font-style: italic; }
.chunk.system { display: flex; gap: 8px; align-items: center; color: #8a6d00; font-size: 12px; }
.chunk.system::before, .chunk.system::after { content: ""; flex: 1; border-top: 1px dashed #d8c890; }
.chunk.system .kind { text-transform: uppercase; font-weight: 600; }
.chunk.steering { border-left: 3px solid #2f6fde; padding-left: 10px; }
.chunk.steering .who { font-size: 11px; color: #2f6fde; }
.chunk.custom, .chunk.data, .chunk.file, .chunk.source { font-size: 12px; color: #6b7385; }
header form.search { flex: 1; max-width: 420px; }
header form.search input { width: 100%; padding: 4px 8px; border: 1px solid #cdd3dd; border-radius: 6px; font: inherit; }
a { color: #2f5fb8; }
.crumbs { margin: 4px 0; } .muted, .ago, .note, .scan, .hidden-count { color: #6b7385; }
.ago { font-size: 11px; margin-left: 4px; }
code.id { font-size: 12px; }
.status { font-size: 11px; padding: 1px 7px; border-radius: 10px; background: #e3e7ee; font-weight: 600; }
.status-running { background: #fff2c6; color: #8a6100; } .status-completed { background: #dcf2dd; color: #2e7d32; }
.status-failed { background: #fde0e0; color: #c62828; } .status-cancelled { background: #ece4f7; color: #5e35b1; }
.status-interrupted { background: #fbe3cf; color: #b3541e; }
.live { margin-left: 8px; font-size: 12px; color: #8a6100; }
.live::before { content: "●"; margin-right: 4px; animation: pulse 1.2s infinite; }
@keyframes pulse { 50% { opacity: .25; } }
.turn-nav { display: flex; justify-content: space-between; margin: 6px 0; }
table.turns td.said { color: #3d4658; max-width: 340px; }
tr.turn.turn-failed td:first-child, tr.turn.turn-cancelled td:first-child, tr.turn.turn-interrupted td:first-child { box-shadow: inset 3px 0 #e57373; }
tr.turn.turn-running td:first-child { box-shadow: inset 3px 0 #f0b400; }
code.id, time, td.num { white-space: nowrap; }
.statuses { display: flex; gap: 10px; margin: 6px 0 10px; font-size: 13px; }
form.filters, form.search-thread { display: flex; gap: 10px; align-items: center; flex-wrap: wrap; margin: 10px 0; padding: 8px 12px; background: #fff; border: 1px solid #dde1e8; border-radius: 8px; }
form.filters select, form.search-thread input { font: inherit; }
td.snippet { max-width: 640px; overflow-wrap: anywhere; }
tr.hit .version, .usage-scope { font-size: 12px; color: #6b7385; }
mark { background: #ffe58a; padding: 0 1px; }
.tabs { display: flex; gap: 6px; margin: 8px 0; flex-wrap: wrap; }
.tabs .tab { padding: 3px 10px; border-radius: 14px; border: 1px solid #cdd3dd; text-decoration: none; background: #fff; }
.tabs b.tab { background: #1d2330; color: #fff; border-color: #1d2330; }
.model-message { background: #fff; border: 1px solid #dde1e8; border-radius: 8px; padding: 6px 12px; margin: 8px 0; }
.model-message.fresh { border-left: 4px solid #2f6fde; }
.model-message .mhead { font-size: 12px; color: #6b7385; display: flex; gap: 6px; align-items: center; }
.model-message .role { text-transform: uppercase; font-weight: 600; letter-spacing: .04em; }
.model-message.role-user .role { color: #2f6fde; } .model-message.role-tool .role { color: #2e7d32; }
.part { border-top: 1px dashed #eceff3; padding-top: 4px; margin-top: 4px; }
.part .ptype { font-size: 11px; color: #6b7385; font-family: ui-monospace, monospace; margin-right: 4px; }
.badge.new { background: #e2ebfb; color: #2f5fb8; }
.breakpoint { font-size: 11px; padding: 1px 7px; border-radius: 10px; background: #fff2c6; color: #8a6100; font-weight: 600; }
.breakpoint::before { content: "⚑ "; }
.lineage { margin: 4px 0; } .lineage.shown { color: #3d4658; }
.fork-point { font-size: 12px; color: #8a6d00; }
table.branches td.num { width: 4em; } ol.versions { margin: 0; padding: 0; list-style: none; }
li.version.active > a { font-weight: 600; }
.badge.active { background: #dcf2dd; color: #2e7d32; }
`;
