<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="de">
    <context>
        <name>sb::gui::ChartExport</name>
        <message>
            <source>Cannot write %1: %2</source>
            <translation>%1 kann nicht geschrieben werden: %2</translation>
        </message>
        <message>
            <source>Cannot write the image %1</source>
            <translation>Das Bild %1 kann nicht geschrieben werden</translation>
        </message>
        <message>
            <source>shardbench memory estimate</source>
            <translation>shardbench-Speicherabschätzung</translation>
        </message>
        <message>
            <source>Peak memory per rank and memory through one training step</source>
            <translation>Spitzenspeicher je Rang und Speicher über einen Trainingsschritt</translation>
        </message>
        <message>
            <source>Cannot write the drawing %1</source>
            <translation>Die Zeichnung %1 kann nicht geschrieben werden</translation>
        </message>
        <message>
            <source>The plan has errors, so there is no estimate to export.</source>
            <translation>Der Plan enthält Fehler, daher gibt es keine Abschätzung zum Exportieren.</translation>
        </message>
    </context>
    <context>
        <name>sb::gui::DevicePresets</name>
        <message>
            <source>CPU RAM</source>
            <translation>CPU-Arbeitsspeicher</translation>
        </message>
        <message>
            <source>Custom GPU</source>
            <translation>Eigene GPU</translation>
        </message>
    </context>
    <context>
        <name>sb::gui::FileController</name>
        <message>
            <source>Unsaved changes</source>
            <translation>Ungespeicherte Änderungen</translation>
        </message>
        <message>
            <source>The plan has unsaved changes. Save them first?</source>
            <translation>Der Plan hat ungespeicherte Änderungen. Zuerst speichern?</translation>
        </message>
        <message>
            <source>Save</source>
            <translation>Speichern</translation>
        </message>
        <message>
            <source>Discard</source>
            <translation>Verwerfen</translation>
        </message>
        <message>
            <source>Cancel</source>
            <translation>Abbrechen</translation>
        </message>
        <message>
            <source>New plan</source>
            <translation>Neuer Plan</translation>
        </message>
        <message>
            <source>Open plan</source>
            <translation>Plan öffnen</translation>
        </message>
        <message>
            <source>shardbench plans (*.json);;All files (*)</source>
            <translation>shardbench-Pläne (*.json);;Alle Dateien (*)</translation>
        </message>
        <message>
            <source>%1 cannot be opened as a plan:
%2</source>
            <translation>%1 kann nicht als Plan geöffnet werden:
%2</translation>
        </message>
        <message>
            <source>Opened %1</source>
            <translation>%1 geöffnet</translation>
        </message>
        <message>
            <source>Save plan</source>
            <translation>Plan speichern</translation>
        </message>
        <message>
            <source>shardbench plans (*.json)</source>
            <translation>shardbench-Pläne (*.json)</translation>
        </message>
        <message>
            <source>The plan was not saved: %1</source>
            <translation>Der Plan wurde nicht gespeichert: %1</translation>
        </message>
        <message>
            <source>Saved %1</source>
            <translation>%1 gespeichert</translation>
        </message>
        <message>
            <source>Import module tree</source>
            <translation>Modulbaum importieren</translation>
        </message>
        <message>
            <source>Module trees (*.json);;All files (*)</source>
            <translation>Modulbäume (*.json);;Alle Dateien (*)</translation>
        </message>
        <message>
            <source>Cannot read %1: %2</source>
            <translation>%1 kann nicht gelesen werden: %2</translation>
        </message>
        <message>
            <source>%1 is not valid JSON: %2</source>
            <translation>%1 ist kein gültiges JSON: %2</translation>
        </message>
        <message>
            <source>%1 is not a module tree:
%2</source>
            <translation>%1 ist kein Modulbaum:
%2</translation>
        </message>
        <message numerus="yes">
            <source>Imported %n module(s) from %1</source>
            <translation>
                <numerusform>%n Modul aus %1 importiert</numerusform>
                <numerusform>%n Module aus %1 importiert</numerusform>
            </translation>
        </message>
        <message>
            <source>Export FSDP2 script</source>
            <translation>FSDP2-Skript exportieren</translation>
        </message>
        <message>
            <source>The plan has errors; fix them before exporting a training script.</source>
            <translation>Der Plan enthält Fehler; beheben Sie sie, bevor Sie ein Trainingsskript exportieren.</translation>
        </message>
        <message>
            <source>Python scripts (*.py)</source>
            <translation>Python-Skripte (*.py)</translation>
        </message>
        <message>
            <source>Wrote %1</source>
            <translation>%1 geschrieben</translation>
        </message>
        <message>
            <source>Export charts as PNG</source>
            <translation>Diagramme als PNG exportieren</translation>
        </message>
        <message>
            <source>PNG images (*.png)</source>
            <translation>PNG-Bilder (*.png)</translation>
        </message>
        <message>
            <source>Export charts as SVG</source>
            <translation>Diagramme als SVG exportieren</translation>
        </message>
        <message>
            <source>SVG drawings (*.svg)</source>
            <translation>SVG-Zeichnungen (*.svg)</translation>
        </message>
        <message>
            <source>Export memory breakdown</source>
            <translation>Speicheraufteilung exportieren</translation>
        </message>
        <message>
            <source>CSV files (*.csv)</source>
            <translation>CSV-Dateien (*.csv)</translation>
        </message>
    </context>
    <context>
        <name>sb::gui::Format</name>
        <message>
            <source>%1 GiB</source>
            <translation>%1 GiB</translation>
        </message>
        <message>
            <source>%1 B</source>
            <translation>%1 B</translation>
        </message>
        <message>
            <source>%1 KiB</source>
            <translation>%1 KiB</translation>
        </message>
        <message>
            <source>%1 MiB</source>
            <translation>%1 MiB</translation>
        </message>
        <message>
            <source>%1 TiB</source>
            <translation>%1 TiB</translation>
        </message>
        <message>
            <source>scalar</source>
            <translation>Skalar</translation>
        </message>
    </context>
    <context>
        <name>sb::gui::Labels</name>
        <message>
            <source>Sharded parameters</source>
            <translation>Geshardete Parameter</translation>
        </message>
        <message>
            <source>Sharded gradients</source>
            <translation>Geshardete Gradienten</translation>
        </message>
        <message>
            <source>Optimizer state</source>
            <translation>Optimiererzustand</translation>
        </message>
        <message>
            <source>Unsharded parameters</source>
            <translation>Ungeshardete Parameter</translation>
        </message>
        <message>
            <source>Communication buffers</source>
            <translation>Kommunikationspuffer</translation>
        </message>
        <message>
            <source>Unsharded gradients</source>
            <translation>Ungeshardete Gradienten</translation>
        </message>
        <message>
            <source>Activations</source>
            <translation>Aktivierungen</translation>
        </message>
        <message>
            <source>Logits and loss</source>
            <translation>Logits und Verlust</translation>
        </message>
        <message>
            <source>Other</source>
            <translation>Sonstiges</translation>
        </message>
        <message>
            <source>Gathered parameters in param_dtype: computing, kept, prefetched, 1/k copies</source>
            <translation>Gesammelte Parameter in param_dtype: rechnend, behalten, vorab geladen, 1/k-Kopien</translation>
        </message>
        <message>
            <source>All-gather outputs and reduce-scatter buffers</source>
            <translation>All-Gather-Ausgaben und Reduce-Scatter-Puffer</translation>
        </message>
        <message>
            <source>Full-size gradients before reduce-scatter</source>
            <translation>Vollständige Gradienten vor dem Reduce-Scatter</translation>
        </message>
        <message>
            <source>Tensors saved for backward and backward workspace</source>
            <translation>Für den Rückwärtsdurchlauf gespeicherte Tensoren und dessen Arbeitsspeicher</translation>
        </message>
        <message>
            <source>Logits, log-softmax and their gradients</source>
            <translation>Logits, Log-Softmax und ihre Gradienten</translation>
        </message>
        <message>
            <source>Input tokens and optimizer temporaries</source>
            <translation>Eingabe-Token und temporäre Daten des Optimierers</translation>
        </message>
        <message>
            <source>FSDP2 tutorial Transformer (editable sizes)</source>
            <translation>Transformer aus dem FSDP2-Tutorial (Größen änderbar)</translation>
        </message>
        <message>
            <source>GPT-2 small, 12 layers, 768 wide</source>
            <translation>GPT-2 small, 12 Schichten, Breite 768</translation>
        </message>
        <message>
            <source>GPT-2 medium, 24 layers, 1024 wide</source>
            <translation>GPT-2 medium, 24 Schichten, Breite 1024</translation>
        </message>
        <message>
            <source>GPT-2 large, 36 layers, 1280 wide</source>
            <translation>GPT-2 large, 36 Schichten, Breite 1280</translation>
        </message>
        <message>
            <source>GPT-2 XL, 48 layers, 1600 wide</source>
            <translation>GPT-2 XL, 48 Schichten, Breite 1600</translation>
        </message>
        <message>
            <source>Llama-3 8B, 32 layers, 4096 wide, GQA 32/8</source>
            <translation>Llama-3 8B, 32 Schichten, Breite 4096, GQA 32/8</translation>
        </message>
        <message>
            <source>Llama-3 70B, 80 layers, 8192 wide, GQA 64/8</source>
            <translation>Llama-3 70B, 80 Schichten, Breite 8192, GQA 64/8</translation>
        </message>
        <message>
            <source>Llama-3 405B, 126 layers, 16384 wide, GQA 128/8</source>
            <translation>Llama-3 405B, 126 Schichten, Breite 16384, GQA 128/8</translation>
        </message>
        <message>
            <source>Imported module tree</source>
            <translation>Importierter Modulbaum</translation>
        </message>
        <message>
            <source>Tutorial Transformer</source>
            <translation>Tutorial-Transformer</translation>
        </message>
        <message>
            <source>GPT-2</source>
            <translation>GPT-2</translation>
        </message>
        <message>
            <source>Llama-3</source>
            <translation>Llama-3</translation>
        </message>
        <message>
            <source>Imported</source>
            <translation>Importiert</translation>
        </message>
        <message>
            <source>default</source>
            <translation>Standard</translation>
        </message>
        <message>
            <source>k = %1</source>
            <translation>k = %1</translation>
        </message>
        <message>
            <source>Dim-0 shards of the parameters (padded), unless offloaded</source>
            <translation>Shards der Parameter entlang Dimension 0 (aufgefüllt), sofern nicht ausgelagert</translation>
        </message>
        <message>
            <source>Sharded gradients, in the parameters' dtype</source>
            <translation>Geshardete Gradienten im Datentyp der Parameter</translation>
        </message>
        <message>
            <source>AdamW exp_avg and exp_avg_sq, in the parameters' dtype</source>
            <translation>AdamW exp_avg und exp_avg_sq im Datentyp der Parameter</translation>
        </message>
    </context>
    <context>
        <name>sb::gui::MainActionsText</name>
        <message>
            <source>&amp;New plan</source>
            <translation>&amp;Neuer Plan</translation>
        </message>
        <message>
            <source>&amp;Open…</source>
            <translation>Ö&amp;ffnen…</translation>
        </message>
        <message>
            <source>&amp;Save</source>
            <translation>&amp;Speichern</translation>
        </message>
        <message>
            <source>Save &amp;as…</source>
            <translation>Speichern &amp;unter…</translation>
        </message>
        <message>
            <source>&amp;Import module tree…</source>
            <translation>Modulbaum &amp;importieren…</translation>
        </message>
        <message>
            <source>PyTorch FSDP2 &amp;script…</source>
            <translation>PyTorch-FSDP2-&amp;Skript…</translation>
        </message>
        <message>
            <source>Charts as &amp;PNG…</source>
            <translation>Diagramme als &amp;PNG…</translation>
        </message>
        <message>
            <source>Charts as S&amp;VG…</source>
            <translation>Diagramme als S&amp;VG…</translation>
        </message>
        <message>
            <source>Memory breakdown as &amp;CSV…</source>
            <translation>Speicheraufteilung als &amp;CSV…</translation>
        </message>
        <message>
            <source>&amp;Quit</source>
            <translation>&amp;Beenden</translation>
        </message>
        <message>
            <source>Select &amp;all modules</source>
            <translation>&amp;Alle Module auswählen</translation>
        </message>
        <message>
            <source>Make every &amp;block a unit</source>
            <translation>Jeden &amp;Block zur Einheit machen</translation>
        </message>
        <message>
            <source>Blocks as units</source>
            <translation>Blöcke als Einheiten</translation>
        </message>
        <message>
            <source>Make each repeated block (layers.0, layers.1, …) a shard unit, as the FSDP2 tutorial does</source>
            <translation>Jeden wiederholten Block (layers.0, layers.1, …) zu einer Shard-Einheit machen, wie im FSDP2-Tutorial</translation>
        </message>
        <message>
            <source>Make selected modules &amp;units</source>
            <translation>Ausgewählte Module zu &amp;Einheiten machen</translation>
        </message>
        <message>
            <source>&amp;Remove selected units</source>
            <translation>Ausgewählte Einheiten &amp;entfernen</translation>
        </message>
        <message>
            <source>&amp;System language</source>
            <translation>&amp;Systemsprache</translation>
        </message>
        <message>
            <source>&amp;About shardbench</source>
            <translation>&amp;Über shardbench</translation>
        </message>
        <message>
            <source>&amp;File</source>
            <translation>&amp;Datei</translation>
        </message>
        <message>
            <source>Open &amp;recent</source>
            <translation>&amp;Zuletzt geöffnet</translation>
        </message>
        <message>
            <source>&amp;Export</source>
            <translation>&amp;Exportieren</translation>
        </message>
        <message>
            <source>&amp;Edit</source>
            <translation>&amp;Bearbeiten</translation>
        </message>
        <message>
            <source>&amp;View</source>
            <translation>&amp;Ansicht</translation>
        </message>
        <message>
            <source>&amp;Settings</source>
            <translation>Ein&amp;stellungen</translation>
        </message>
        <message>
            <source>&amp;Language</source>
            <translation>&amp;Sprache</translation>
        </message>
        <message>
            <source>&amp;Help</source>
            <translation>&amp;Hilfe</translation>
        </message>
        <message>
            <source>Main toolbar</source>
            <translation>Hauptwerkzeugleiste</translation>
        </message>
        <message>
            <source>&amp;Undo</source>
            <translation>&amp;Rückgängig</translation>
        </message>
        <message>
            <source>&amp;Undo %1</source>
            <translation>&amp;Rückgängig: %1</translation>
        </message>
        <message>
            <source>&amp;Redo</source>
            <translation>&amp;Wiederholen</translation>
        </message>
        <message>
            <source>&amp;Redo %1</source>
            <translation>&amp;Wiederholen: %1</translation>
        </message>
        <message>
            <source>Undo</source>
            <translation>Rückgängig</translation>
        </message>
        <message>
            <source>Redo</source>
            <translation>Wiederholen</translation>
        </message>
    </context>
    <context>
        <name>sb::gui::MainWindow</name>
        <message>
            <source>Setup</source>
            <translation>Einrichtung</translation>
        </message>
        <message>
            <source>Problems</source>
            <translation>Probleme</translation>
        </message>
        <message>
            <source>Model</source>
            <translation>Modell</translation>
        </message>
        <message>
            <source>Mesh</source>
            <translation>Gitter</translation>
        </message>
        <message>
            <source>Training</source>
            <translation>Training</translation>
        </message>
        <message>
            <source>Untitled plan</source>
            <translation>Unbenannter Plan</translation>
        </message>
        <message>
            <source>%1[*] — shardbench</source>
            <translation>%1[*] — shardbench</translation>
        </message>
        <message>
            <source>No estimate: the plan has errors</source>
            <translation>Keine Abschätzung: Der Plan enthält Fehler</translation>
        </message>
        <message>
            <source>Peak %1 of %2 per rank</source>
            <translation>Spitze %1 von %2 je Rang</translation>
        </message>
        <message>
            <source>About shardbench</source>
            <translation>Über shardbench</translation>
        </message>
        <message>
            <source>&lt;p&gt;&lt;b&gt;shardbench&lt;/b&gt; %1&lt;/p&gt;&lt;p&gt;A workbench for FSDP2-style sharded training: design a sharding plan, see every rank's memory, and export the plan as a PyTorch FSDP2 script.&lt;/p&gt;</source>
            <translation>&lt;p&gt;&lt;b&gt;shardbench&lt;/b&gt; %1&lt;/p&gt;&lt;p&gt;Eine Werkbank für geshardetes Training im Stil von FSDP2: Sharding-Plan entwerfen, den Speicher jedes Rangs sehen und den Plan als PyTorch-FSDP2-Skript exportieren.&lt;/p&gt;</translation>
        </message>
    </context>
    <context>
        <name>sb::gui::MemoryView</name>
        <message>
            <source>Use it</source>
            <translation>Übernehmen</translation>
        </message>
        <message>
            <source>Set the micro-batch to the largest that fits (undoable)</source>
            <translation>Micro-Batch auf den größten passenden Wert setzen (rückgängig machbar)</translation>
        </message>
        <message>
            <source>The plan has errors: fix the problems listed below to see its memory.</source>
            <translation>Der Plan enthält Fehler: Beheben Sie die unten aufgeführten Probleme, um seinen Speicher zu sehen.</translation>
        </message>
        <message>
            <source>Fits: peak %1 on rank %2 (at %3), %4 to spare of %5 (%6).</source>
            <translation>Passt: Spitze %1 auf Rang %2 (bei %3), %4 frei von %5 (%6).</translation>
        </message>
        <message>
            <source>Does not fit: rank %1 needs %2 at %3, %4 more than the %5 of a %6.</source>
            <translation>Passt nicht: Rang %1 braucht %2 bei %3, %4 mehr als die %5 einer %6.</translation>
        </message>
        <message numerus="yes">
            <source>%1 parameters in %n shard unit(s) · world %2, shard group %3, replicate %4 · micro-batch %5 × sequence %6, accumulation %7</source>
            <translation>
                <numerusform>%1 Parameter in %n Shard-Einheit · Welt %2, Shard-Gruppe %3, Replikate %4 · Micro-Batch %5 × Sequenz %6, Akkumulation %7</numerusform>
                <numerusform>%1 Parameter in %n Shard-Einheiten · Welt %2, Shard-Gruppe %3, Replikate %4 · Micro-Batch %5 × Sequenz %6, Akkumulation %7</numerusform>
            </translation>
        </message>
        <message>
            <source>Largest micro-batch that fits: computing…</source>
            <translation>Größter passender Micro-Batch: wird berechnet…</translation>
        </message>
        <message>
            <source>Largest micro-batch that fits: none, even a micro-batch of 1 is over capacity.</source>
            <translation>Größter passender Micro-Batch: keiner, schon ein Micro-Batch von 1 übersteigt die Kapazität.</translation>
        </message>
        <message>
            <source>Largest micro-batch that fits: %1 (now %2).</source>
            <translation>Größter passender Micro-Batch: %1 (jetzt %2).</translation>
        </message>
    </context>
    <context>
        <name>sb::gui::MeshPanel</name>
        <message>
            <source>Nodes</source>
            <translation>Knoten</translation>
        </message>
        <message>
            <source>GPUs per node</source>
            <translation>GPUs je Knoten</translation>
        </message>
        <message>
            <source>Replicate (HSDP)</source>
            <translation>Replikate (HSDP)</translation>
        </message>
        <message>
            <source>Device</source>
            <translation>Gerät</translation>
        </message>
        <message>
            <source>Memory per rank</source>
            <translation>Speicher je Rang</translation>
        </message>
        <message>
            <source>Replicas of the model; each shards over world size / replicate ranks</source>
            <translation>Replikate des Modells; jedes shardet über Weltgröße / Replikate Ränge</translation>
        </message>
        <message>
            <source> GiB</source>
            <translation> GiB</translation>
        </message>
        <message>
            <source>World size %1, shard group %2 ranks</source>
            <translation>Weltgröße %1, Shard-Gruppe %2 Ränge</translation>
        </message>
    </context>
    <context>
        <name>sb::gui::ModelPanel</name>
        <message>
            <source>Model</source>
            <translation>Modell</translation>
        </message>
        <message>
            <source>Vocabulary</source>
            <translation>Vokabular</translation>
        </message>
        <message>
            <source>Width (dim)</source>
            <translation>Breite (dim)</translation>
        </message>
        <message>
            <source>Layers</source>
            <translation>Schichten</translation>
        </message>
        <message>
            <source>Attention heads</source>
            <translation>Attention-Köpfe</translation>
        </message>
        <message>
            <source>KV heads</source>
            <translation>KV-Köpfe</translation>
        </message>
        <message>
            <source>MLP hidden</source>
            <translation>MLP-Breite</translation>
        </message>
        <message>
            <source>Max. sequence</source>
            <translation>Max. Sequenz</translation>
        </message>
        <message>
            <source>Parameter dtype</source>
            <translation>Parameter-Datentyp</translation>
        </message>
        <message>
            <source>Import module tree…</source>
            <translation>Modulbaum importieren…</translation>
        </message>
        <message>
            <source>Read a module tree written by scripts/export_module_tree.py</source>
            <translation>Einen von scripts/export_module_tree.py geschriebenen Modulbaum lesen</translation>
        </message>
        <message>
            <source>Imported: %1</source>
            <translation>Importiert: %1</translation>
        </message>
        <message>
            <source>Import a module tree…</source>
            <translation>Einen Modulbaum importieren…</translation>
        </message>
        <message numerus="yes">
            <source>%1 parameters in %n module(s)</source>
            <translation>
                <numerusform>%1 Parameter in %n Modul</numerusform>
                <numerusform>%1 Parameter in %n Modulen</numerusform>
            </translation>
        </message>
        <message>
            <source>Tied embeddings</source>
            <translation>Gekoppelte Embeddings</translation>
        </message>
        <message>
            <source>The output projection shares the token embedding's weight</source>
            <translation>Die Ausgabeprojektion teilt sich das Gewicht des Token-Embeddings</translation>
        </message>
    </context>
    <context>
        <name>sb::gui::PlanEdits</name>
        <message numerus="yes">
            <source>Make %n unit(s)</source>
            <translation>
                <numerusform>%n Einheit anlegen</numerusform>
                <numerusform>%n Einheiten anlegen</numerusform>
            </translation>
        </message>
        <message numerus="yes">
            <source>Remove %n unit(s)</source>
            <translation>
                <numerusform>%n Einheit entfernen</numerusform>
                <numerusform>%n Einheiten entfernen</numerusform>
            </translation>
        </message>
        <message numerus="yes">
            <source>Set reshard after forward on %n unit(s)</source>
            <translation>
                <numerusform>Reshard nach Forward für %n Einheit setzen</numerusform>
                <numerusform>Reshard nach Forward für %n Einheiten setzen</numerusform>
            </translation>
        </message>
        <message numerus="yes">
            <source>Set parameter dtype on %n unit(s)</source>
            <translation>
                <numerusform>Parameter-Datentyp für %n Einheit setzen</numerusform>
                <numerusform>Parameter-Datentyp für %n Einheiten setzen</numerusform>
            </translation>
        </message>
        <message numerus="yes">
            <source>Set reduce dtype on %n unit(s)</source>
            <translation>
                <numerusform>Reduktions-Datentyp für %n Einheit setzen</numerusform>
                <numerusform>Reduktions-Datentyp für %n Einheiten setzen</numerusform>
            </translation>
        </message>
        <message numerus="yes">
            <source>Set output dtype on %n unit(s)</source>
            <translation>
                <numerusform>Ausgabe-Datentyp für %n Einheit setzen</numerusform>
                <numerusform>Ausgabe-Datentyp für %n Einheiten setzen</numerusform>
            </translation>
        </message>
        <message numerus="yes">
            <source>Set CPU offload on %n unit(s)</source>
            <translation>
                <numerusform>CPU-Auslagerung für %n Einheit setzen</numerusform>
                <numerusform>CPU-Auslagerung für %n Einheiten setzen</numerusform>
            </translation>
        </message>
        <message numerus="yes">
            <source>Set activation checkpointing on %n unit(s)</source>
            <translation>
                <numerusform>Aktivierungs-Checkpointing für %n Einheit setzen</numerusform>
                <numerusform>Aktivierungs-Checkpointing für %n Einheiten setzen</numerusform>
            </translation>
        </message>
        <message numerus="yes">
            <source>Set forward prefetch on %n unit(s)</source>
            <translation>
                <numerusform>Forward-Prefetch für %n Einheit setzen</numerusform>
                <numerusform>Forward-Prefetch für %n Einheiten setzen</numerusform>
            </translation>
        </message>
        <message numerus="yes">
            <source>Set backward prefetch on %n unit(s)</source>
            <translation>
                <numerusform>Backward-Prefetch für %n Einheit setzen</numerusform>
                <numerusform>Backward-Prefetch für %n Einheiten setzen</numerusform>
            </translation>
        </message>
        <message>
            <source>Make every block a unit</source>
            <translation>Jeden Block zur Einheit machen</translation>
        </message>
        <message>
            <source>Change model to %1</source>
            <translation>Modell zu %1 ändern</translation>
        </message>
        <message>
            <source>Change model sizes</source>
            <translation>Modellgrößen ändern</translation>
        </message>
        <message>
            <source>Change mesh</source>
            <translation>Gitter ändern</translation>
        </message>
        <message>
            <source>Change training settings</source>
            <translation>Trainingseinstellungen ändern</translation>
        </message>
    </context>
    <context>
        <name>sb::gui::PlanTreeModel</name>
        <message>
            <source>Tied to %1</source>
            <translation>Gekoppelt an %1</translation>
        </message>
        <message>
            <source>%1, tied</source>
            <translation>%1, gekoppelt</translation>
        </message>
        <message>
            <source>(root)</source>
            <translation>(Wurzel)</translation>
        </message>
        <message>
            <source>The root module</source>
            <translation>Das Wurzelmodul</translation>
        </message>
        <message>
            <source>The root is always a unit: it owns every parameter no other unit takes</source>
            <translation>Die Wurzel ist immer eine Einheit: Ihr gehört jeder Parameter, den keine andere Einheit nimmt</translation>
        </message>
        <message>
            <source>A shard unit (fully_shard is applied to this module)</source>
            <translation>Eine Shard-Einheit (fully_shard wird auf dieses Modul angewendet)</translation>
        </message>
        <message>
            <source>Sharded with unit %1</source>
            <translation>Geshardet mit Einheit %1</translation>
        </message>
        <message>
            <source>Default: the root keeps its parameters after forward (False)</source>
            <translation>Standard: Die Wurzel behält ihre Parameter nach dem Forward (False)</translation>
        </message>
        <message>
            <source>Default: free the parameters after forward (True)</source>
            <translation>Standard: Parameter nach dem Forward freigeben (True)</translation>
        </message>
        <message>
            <source>Not set: the parameters' own dtype</source>
            <translation>Nicht gesetzt: der eigene Datentyp der Parameter</translation>
        </message>
        <message>
            <source>Not set: gradients are reduced in the parameter dtype</source>
            <translation>Nicht gesetzt: Gradienten werden im Parameter-Datentyp reduziert</translation>
        </message>
        <message>
            <source>Not set: outputs are not cast</source>
            <translation>Nicht gesetzt: Ausgaben werden nicht umgewandelt</translation>
        </message>
        <message>
            <source>Module</source>
            <translation>Modul</translation>
        </message>
        <message>
            <source>Type</source>
            <translation>Typ</translation>
        </message>
        <message>
            <source>Parameters</source>
            <translation>Parameter</translation>
        </message>
        <message>
            <source>Shape</source>
            <translation>Form</translation>
        </message>
        <message>
            <source>Unit</source>
            <translation>Einheit</translation>
        </message>
        <message>
            <source>Reshard</source>
            <translation>Reshard</translation>
        </message>
        <message>
            <source>Param dtype</source>
            <translation>Param.-Typ</translation>
        </message>
        <message>
            <source>Reduce dtype</source>
            <translation>Reduktionstyp</translation>
        </message>
        <message>
            <source>Output dtype</source>
            <translation>Ausgabetyp</translation>
        </message>
        <message>
            <source>Offload</source>
            <translation>Auslagern</translation>
        </message>
        <message>
            <source>Checkpoint</source>
            <translation>Checkpoint</translation>
        </message>
        <message>
            <source>Forward prefetch</source>
            <translation>Forward-Prefetch</translation>
        </message>
        <message>
            <source>Backward prefetch</source>
            <translation>Backward-Prefetch</translation>
        </message>
        <message>
            <source>Shard unit: fully_shard is applied to this module</source>
            <translation>Shard-Einheit: fully_shard wird auf dieses Modul angewendet</translation>
        </message>
        <message>
            <source>reshard_after_forward: default, True, False, or an integer k (keep a 1/k copy)</source>
            <translation>reshard_after_forward: Standard, True, False oder eine ganze Zahl k (eine 1/k-Kopie behalten)</translation>
        </message>
        <message>
            <source>MixedPrecisionPolicy.param_dtype: the dtype gathered parameters compute in</source>
            <translation>MixedPrecisionPolicy.param_dtype: der Datentyp, in dem gesammelte Parameter rechnen</translation>
        </message>
        <message>
            <source>MixedPrecisionPolicy.reduce_dtype: the dtype gradients are reduced in</source>
            <translation>MixedPrecisionPolicy.reduce_dtype: der Datentyp, in dem Gradienten reduziert werden</translation>
        </message>
        <message>
            <source>MixedPrecisionPolicy.output_dtype: the dtype the unit's outputs are cast to</source>
            <translation>MixedPrecisionPolicy.output_dtype: der Datentyp, in den die Ausgaben der Einheit umgewandelt werden</translation>
        </message>
        <message>
            <source>CPUOffloadPolicy: sharded parameters, gradients and optimizer state on the host</source>
            <translation>CPUOffloadPolicy: geshardete Parameter, Gradienten und Optimiererzustand auf dem Host</translation>
        </message>
        <message>
            <source>Activation checkpointing: keep only the unit's input and recompute in backward</source>
            <translation>Aktivierungs-Checkpointing: nur die Eingabe der Einheit behalten und im Backward neu berechnen</translation>
        </message>
        <message>
            <source>Units to all-gather early in forward (comma-separated)</source>
            <translation>Einheiten, die im Forward früh gesammelt werden (durch Komma getrennt)</translation>
        </message>
        <message>
            <source>Units to all-gather early in backward (comma-separated)</source>
            <translation>Einheiten, die im Backward früh gesammelt werden (durch Komma getrennt)</translation>
        </message>
    </context>
    <context>
        <name>sb::gui::PlanTreeView</name>
        <message>
            <source>Reshard after forward</source>
            <translation>Reshard nach Forward</translation>
        </message>
        <message>
            <source>Keep a 1/k copy after forward; k must divide the shard group of %1 ranks.</source>
            <translation>Nach dem Forward eine 1/k-Kopie behalten; k muss die Shard-Gruppe von %1 Rängen teilen.</translation>
        </message>
        <message>
            <source>Make units</source>
            <translation>Zu Einheiten machen</translation>
        </message>
        <message>
            <source>Remove units</source>
            <translation>Einheiten entfernen</translation>
        </message>
        <message>
            <source>Make every block a unit</source>
            <translation>Jeden Block zur Einheit machen</translation>
        </message>
        <message>
            <source>default</source>
            <translation>Standard</translation>
        </message>
        <message>
            <source>Integer k…</source>
            <translation>Ganze Zahl k…</translation>
        </message>
        <message>
            <source>Parameter dtype</source>
            <translation>Parameter-Datentyp</translation>
        </message>
        <message>
            <source>Reduce dtype</source>
            <translation>Reduktionstyp</translation>
        </message>
        <message>
            <source>Output dtype</source>
            <translation>Ausgabetyp</translation>
        </message>
        <message>
            <source>CPU offload</source>
            <translation>CPU-Auslagerung</translation>
        </message>
        <message>
            <source>On</source>
            <translation>Ein</translation>
        </message>
        <message>
            <source>Off</source>
            <translation>Aus</translation>
        </message>
        <message>
            <source>Activation checkpointing</source>
            <translation>Aktivierungs-Checkpointing</translation>
        </message>
        <message>
            <source>Expand all</source>
            <translation>Alle ausklappen</translation>
        </message>
        <message>
            <source>Collapse all</source>
            <translation>Alle einklappen</translation>
        </message>
    </context>
    <context>
        <name>sb::gui::PolicyDelegate</name>
        <message>
            <source>default</source>
            <translation>Standard</translation>
        </message>
        <message>
            <source>default, True, False, or an integer k that divides the shard group</source>
            <translation>Standard, True, False oder eine ganze Zahl k, die die Shard-Gruppe teilt</translation>
        </message>
        <message>
            <source>layers.1, layers.2</source>
            <translation>layers.1, layers.2</translation>
        </message>
    </context>
    <context>
        <name>sb::gui::ProblemText</name>
        <message>
            <source>nodes must be at least 1</source>
            <translation>nodes muss mindestens 1 sein</translation>
        </message>
        <message>
            <source>procs_per_node must be at least 1</source>
            <translation>procs_per_node muss mindestens 1 sein</translation>
        </message>
        <message>
            <source>replicate must be at least 1</source>
            <translation>replicate muss mindestens 1 sein</translation>
        </message>
        <message>
            <source>replicate degree %1 does not divide world size %2</source>
            <translation>Replikationsgrad %1 teilt die Weltgröße %2 nicht</translation>
        </message>
        <message>
            <source>world size %1 is above the %2 ranks shardbench models</source>
            <translation>Weltgröße %1 liegt über den %2 Rängen, die shardbench modelliert</translation>
        </message>
        <message>
            <source>device memory must be greater than 0</source>
            <translation>Gerätespeicher muss größer als 0 sein</translation>
        </message>
        <message>
            <source>micro_batch must be at least 1</source>
            <translation>micro_batch muss mindestens 1 sein</translation>
        </message>
        <message>
            <source>seq_len must be at least 1</source>
            <translation>seq_len muss mindestens 1 sein</translation>
        </message>
        <message>
            <source>grad_accum must be at least 1</source>
            <translation>grad_accum muss mindestens 1 sein</translation>
        </message>
        <message>
            <source>steps must not be negative</source>
            <translation>steps darf nicht negativ sein</translation>
        </message>
        <message>
            <source>seq_len %1 exceeds the model's position table (max_seq_len %2)</source>
            <translation>seq_len %1 übersteigt die Positionstabelle des Modells (max_seq_len %2)</translation>
        </message>
        <message>
            <source>grad_clip must be 0 (off) or positive</source>
            <translation>grad_clip muss 0 (aus) oder positiv sein</translation>
        </message>
        <message>
            <source>lr must be greater than 0 and below 10</source>
            <translation>lr muss größer als 0 und kleiner als 10 sein</translation>
        </message>
        <message>
            <source>betas must lie in [0, 1)</source>
            <translation>betas müssen in [0, 1) liegen</translation>
        </message>
        <message>
            <source>eps must be positive</source>
            <translation>eps muss positiv sein</translation>
        </message>
        <message>
            <source>weight_decay must not be negative</source>
            <translation>weight_decay darf nicht negativ sein</translation>
        </message>
        <message>
            <source>schedule must be "constant" or "cosine", got "%1"</source>
            <translation>schedule muss „constant“ oder „cosine“ sein, erhalten: „%1“</translation>
        </message>
        <message>
            <source>min_lr_ratio must lie in [0, 1]</source>
            <translation>min_lr_ratio muss in [0, 1] liegen</translation>
        </message>
        <message>
            <source>a tokens or text data source needs a "path"</source>
            <translation>eine Token- oder Textdatenquelle braucht einen „path“</translation>
        </message>
        <message>
            <source>a checkpoint interval needs a checkpoint "dir"</source>
            <translation>ein Checkpoint-Intervall braucht ein Checkpoint-„dir“</translation>
        </message>
        <message>
            <source>unsupported plan version %1</source>
            <translation>nicht unterstützte Planversion %1</translation>
        </message>
        <message>
            <source>missing integer "version"</source>
            <translation>ganzzahlige „version“ fehlt</translation>
        </message>
        <message>
            <source>plan format version %1 is not supported (this build reads version %2)</source>
            <translation>Planformat-Version %1 wird nicht unterstützt (diese Version liest Version %2)</translation>
        </message>
        <message>
            <source>not a shardbench plan: "format" must be "shardbench-plan"</source>
            <translation>kein shardbench-Plan: „format“ muss „shardbench-plan“ sein</translation>
        </message>
        <message>
            <source>invalid JSON at %1</source>
            <translation>ungültiges JSON bei %1</translation>
        </message>
        <message>
            <source>unknown field "%1" is ignored</source>
            <translation>unbekanntes Feld „%1“ wird ignoriert</translation>
        </message>
        <message>
            <source>the model has no parameters</source>
            <translation>das Modell hat keine Parameter</translation>
        </message>
        <message>
            <source>parameter "%1" is a scalar; fully_shard cannot shard 0-dim parameters (make it 1-D or list it in ignored_params)</source>
            <translation>Parameter „%1“ ist ein Skalar; fully_shard kann 0-dimensionale Parameter nicht sharden (machen Sie ihn 1-dimensional oder tragen Sie ihn in ignored_params ein)</translation>
        </message>
        <message>
            <source>reshard_after_forward %1 does not divide the shard group of %2 ranks</source>
            <translation>reshard_after_forward %1 teilt die Shard-Gruppe von %2 Rängen nicht</translation>
        </message>
        <message>
            <source>fp16 compute is not available on cpu; use bf16</source>
            <translation>fp16-Berechnung ist auf der CPU nicht verfügbar; verwenden Sie bf16</translation>
        </message>
        <message>
            <source>CPU offload has no effect when the device is already the CPU</source>
            <translation>CPU-Auslagerung hat keine Wirkung, wenn das Gerät bereits die CPU ist</translation>
        </message>
        <message>
            <source>Gloo (cpu) cannot reduce gradients in bf16; set reduce_dtype to fp32</source>
            <translation>Gloo (CPU) kann Gradienten nicht in bf16 reduzieren; setzen Sie reduce_dtype auf fp32</translation>
        </message>
        <message>
            <source>unit "%1" owns no parameters (its children are all units)</source>
            <translation>Einheit „%1“ besitzt keine Parameter (alle ihre Kinder sind Einheiten)</translation>
        </message>
        <message>
            <source>unknown module "%1": the model has no module of that name</source>
            <translation>unbekanntes Modul „%1“: Das Modell hat kein Modul dieses Namens</translation>
        </message>
        <message>
            <source>the root is listed as a unit more than once</source>
            <translation>die Wurzel ist mehr als einmal als Einheit aufgeführt</translation>
        </message>
        <message>
            <source>"%1" is listed as a unit more than once</source>
            <translation>„%1“ ist mehr als einmal als Einheit aufgeführt</translation>
        </message>
        <message>
            <source>unknown parameter "%1"</source>
            <translation>unbekannter Parameter „%1“</translation>
        </message>
        <message>
            <source>parameter "%1" is tied to "%2" but they fall into different units (%3 and %4); make both modules part of one unit</source>
            <translation>Parameter „%1“ ist an „%2“ gekoppelt, aber sie liegen in verschiedenen Einheiten (%3 und %4); legen Sie beide Module in eine Einheit</translation>
        </message>
        <message>
            <source>prefetch target "%1" is not a shard unit</source>
            <translation>Prefetch-Ziel „%1“ ist keine Shard-Einheit</translation>
        </message>
        <message>
            <source>a unit cannot prefetch itself</source>
            <translation>eine Einheit kann sich nicht selbst vorab laden</translation>
        </message>
        <message>
            <source>%1 must be between 1 and %2, got %3</source>
            <translation>%1 muss zwischen 1 und %2 liegen, erhalten: %3</translation>
        </message>
        <message>
            <source>dim %1 is not divisible by n_heads %2</source>
            <translation>dim %1 ist nicht durch n_heads %2 teilbar</translation>
        </message>
        <message>
            <source>n_heads %1 is not a multiple of n_kv_heads %2</source>
            <translation>n_heads %1 ist kein Vielfaches von n_kv_heads %2</translation>
        </message>
        <message>
            <source>grouped-query attention (n_kv_heads != n_heads) needs the llama architecture</source>
            <translation>Grouped-Query-Attention (n_kv_heads != n_heads) erfordert die Llama-Architektur</translation>
        </message>
        <message>
            <source>RoPE needs an even head dimension, got %1</source>
            <translation>RoPE braucht eine gerade Kopfdimension, erhalten: %1</translation>
        </message>
        <message>
            <source>not a shardbench module tree (format must be "shardbench-module-tree")</source>
            <translation>kein shardbench-Modulbaum („format“ muss „shardbench-module-tree“ sein)</translation>
        </message>
        <message>
            <source>unsupported module-tree version (this build reads version 1)</source>
            <translation>nicht unterstützte Modulbaum-Version (diese Version liest Version 1)</translation>
        </message>
        <message>
            <source>"modules" must be a non-empty array, root first</source>
            <translation>„modules“ muss ein nicht leeres Array sein, die Wurzel zuerst</translation>
        </message>
        <message>
            <source>module "%1" is empty or listed twice</source>
            <translation>Modul „%1“ ist leer oder doppelt aufgeführt</translation>
        </message>
        <message>
            <source>module "%1" appears before its parent "%2"</source>
            <translation>Modul „%1“ steht vor seinem Elternmodul „%2“</translation>
        </message>
        <message>
            <source>"shape" must be an array of non-negative integers</source>
            <translation>„shape“ muss ein Array nicht negativer ganzer Zahlen sein</translation>
        </message>
        <message>
            <source>tied_to names unknown parameter "%1"</source>
            <translation>tied_to nennt den unbekannten Parameter „%1“</translation>
        </message>
        <message>
            <source>the root</source>
            <translation>die Wurzel</translation>
        </message>
        <message>
            <source>Error</source>
            <translation>Fehler</translation>
        </message>
        <message>
            <source>Warning</source>
            <translation>Warnung</translation>
        </message>
    </context>
    <context>
        <name>sb::gui::ProblemsModel</name>
        <message>
            <source>(root)</source>
            <translation>(Wurzel)</translation>
        </message>
        <message>
            <source>Severity</source>
            <translation>Schwere</translation>
        </message>
        <message>
            <source>Path</source>
            <translation>Pfad</translation>
        </message>
        <message>
            <source>Module</source>
            <translation>Modul</translation>
        </message>
        <message>
            <source>Problem</source>
            <translation>Problem</translation>
        </message>
    </context>
    <context>
        <name>sb::gui::ProblemsPanel</name>
        <message>
            <source>No problems: the plan is valid.</source>
            <translation>Keine Probleme: Der Plan ist gültig.</translation>
        </message>
        <message numerus="yes">
            <source>%n error(s)</source>
            <translation>
                <numerusform>%n Fehler</numerusform>
                <numerusform>%n Fehler</numerusform>
            </translation>
        </message>
        <message numerus="yes">
            <source>%n warning(s)</source>
            <translation>
                <numerusform>%n Warnung</numerusform>
                <numerusform>%n Warnungen</numerusform>
            </translation>
        </message>
    </context>
    <context>
        <name>sb::gui::RankChart</name>
        <message>
            <source>Peak memory per rank</source>
            <translation>Spitzenspeicher je Rang</translation>
        </message>
        <message numerus="yes">
            <source>Peak memory per rank: %n rank(s)</source>
            <translation>
                <numerusform>Spitzenspeicher je Rang: %n Rang</numerusform>
                <numerusform>Spitzenspeicher je Rang: %n Ränge</numerusform>
            </translation>
        </message>
        <message numerus="yes">
            <source> in %n group(s) of identical ranks</source>
            <translation>
                <numerusform> in %n Gruppe gleicher Ränge</numerusform>
                <numerusform> in %n Gruppen gleicher Ränge</numerusform>
            </translation>
        </message>
        <message>
            <source> (the %1 highest shown)</source>
            <translation> (die %1 höchsten gezeigt)</translation>
        </message>
        <message>
            <source>OVER CAPACITY by %1</source>
            <translation>KAPAZITÄT ÜBERSCHRITTEN um %1</translation>
        </message>
        <message>
            <source>Capacity</source>
            <translation>Kapazität</translation>
        </message>
        <message>
            <source>GiB</source>
            <translation>GiB</translation>
        </message>
        <message>
            <source>Ranks</source>
            <translation>Ränge</translation>
        </message>
        <message numerus="yes">
            <source>Ranks %1 (%n rank(s))</source>
            <translation>
                <numerusform>Ränge %1 (%n Rang)</numerusform>
                <numerusform>Ränge %1 (%n Ränge)</numerusform>
            </translation>
        </message>
        <message>
            <source>%1: %2</source>
            <translation>%1: %2</translation>
        </message>
        <message>
            <source>Peak: %1 of %2</source>
            <translation>Spitze: %1 von %2</translation>
        </message>
        <message>
            <source>Offloaded to host: %1</source>
            <translation>Auf den Host ausgelagert: %1</translation>
        </message>
    </context>
    <context>
        <name>sb::gui::RankGroups</name>
        <message numerus="yes">
            <source>, … (%n run(s))</source>
            <translation>
                <numerusform>, … (%n Abschnitt)</numerusform>
                <numerusform>, … (%n Abschnitte)</numerusform>
            </translation>
        </message>
    </context>
    <context>
        <name>sb::gui::RecentFiles</name>
        <message>
            <source>No recent plans</source>
            <translation>Keine zuletzt verwendeten Pläne</translation>
        </message>
        <message>
            <source>Clear list</source>
            <translation>Liste leeren</translation>
        </message>
    </context>
    <context>
        <name>sb::gui::TimelineChart</name>
        <message>
            <source>root</source>
            <translation>Wurzel</translation>
        </message>
        <message>
            <source>start of step</source>
            <translation>Beginn des Schritts</translation>
        </message>
        <message>
            <source>pre-forward %1</source>
            <translation>vor Forward %1</translation>
        </message>
        <message>
            <source>post-forward %1</source>
            <translation>nach Forward %1</translation>
        </message>
        <message>
            <source>loss</source>
            <translation>Verlust</translation>
        </message>
        <message>
            <source>pre-backward %1</source>
            <translation>vor Backward %1</translation>
        </message>
        <message>
            <source>loss backward</source>
            <translation>Backward des Verlusts</translation>
        </message>
        <message>
            <source>backward %1</source>
            <translation>Backward %1</translation>
        </message>
        <message>
            <source>post-backward %1</source>
            <translation>nach Backward %1</translation>
        </message>
        <message>
            <source>optimizer step</source>
            <translation>Optimiererschritt</translation>
        </message>
        <message>
            <source>peak %1</source>
            <translation>Spitze %1</translation>
        </message>
        <message>
            <source>Memory through one step</source>
            <translation>Speicher über einen Schritt</translation>
        </message>
        <message>
            <source>forward</source>
            <translation>Forward</translation>
        </message>
        <message>
            <source>backward</source>
            <translation>Backward</translation>
        </message>
        <message>
            <source>opt.</source>
            <translation>Opt.</translation>
        </message>
        <message numerus="yes">
            <source>Memory through one step on rank %1 (%n point(s))</source>
            <translation>
                <numerusform>Speicher über einen Schritt auf Rang %1 (%n Punkt)</numerusform>
                <numerusform>Speicher über einen Schritt auf Rang %1 (%n Punkte)</numerusform>
            </translation>
        </message>
        <message>
            <source>OVER CAPACITY at the peak: %1</source>
            <translation>KAPAZITÄT ÜBERSCHRITTEN an der Spitze: %1</translation>
        </message>
        <message>
            <source>Capacity</source>
            <translation>Kapazität</translation>
        </message>
        <message>
            <source>GiB</source>
            <translation>GiB</translation>
        </message>
        <message>
            <source>Total: %1</source>
            <translation>Gesamt: %1</translation>
        </message>
        <message>
            <source>%1: %2</source>
            <translation>%1: %2</translation>
        </message>
    </context>
    <context>
        <name>sb::gui::TrainingPanel</name>
        <message>
            <source>Micro-batch</source>
            <translation>Micro-Batch</translation>
        </message>
        <message>
            <source>Sequence length</source>
            <translation>Sequenzlänge</translation>
        </message>
        <message>
            <source>Accumulation steps</source>
            <translation>Akkumulationsschritte</translation>
        </message>
        <message>
            <source>Micro-batches per optimizer step (gradient accumulation without sync)</source>
            <translation>Micro-Batches je Optimiererschritt (Gradientenakkumulation ohne Synchronisation)</translation>
        </message>
        <message>
            <source>%1 tokens per optimizer step across all ranks</source>
            <translation>%1 Token je Optimiererschritt über alle Ränge</translation>
        </message>
    </context>
</TS>
