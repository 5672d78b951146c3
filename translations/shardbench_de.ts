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
        <message>
            <source>This chart has no data to export yet.</source>
            <translation>Dieses Diagramm hat noch keine Daten zum Exportieren.</translation>
        </message>
    </context>
    <context>
        <name>sb::gui::ChartViewBase</name>
        <message>
            <source>Export as PNG…</source>
            <translation>Als PNG exportieren…</translation>
        </message>
        <message>
            <source>Export as SVG…</source>
            <translation>Als SVG exportieren…</translation>
        </message>
        <message>
            <source>Export data as CSV…</source>
            <translation>Daten als CSV exportieren…</translation>
        </message>
    </context>
    <context>
        <name>sb::gui::CheckpointsController</name>
        <message>
            <source>Exported to %1 for Hugging Face (AutoModelForCausalLM.from_pretrained reads it).</source>
            <translation>Nach %1 für Hugging Face exportiert (AutoModelForCausalLM.from_pretrained liest ihn).</translation>
        </message>
        <message>
            <source>Export for Hugging Face into a new folder</source>
            <translation>Für Hugging Face in einen neuen Ordner exportieren</translation>
        </message>
        <message>
            <source>run %1</source>
            <translation>Lauf %1</translation>
        </message>
        <message>
            <source>run %1 (%2)</source>
            <translation>Lauf %1 (%2)</translation>
        </message>
        <message>
            <source>%1 — %2, %3</source>
            <translation>%1 — %2, %3</translation>
        </message>
        <message>
            <source>This run has no checkpoints (set a checkpoint folder in the plan&apos;s training settings).</source>
            <translation>Dieser Lauf hat keine Checkpoints (legen Sie in den Trainingseinstellungen des Plans einen Checkpoint-Ordner fest).</translation>
        </message>
        <message numerus="yes">
            <source>%n checkpoint(s).</source>
            <translation>
                <numerusform>%n Checkpoint.</numerusform>
                <numerusform>%n Checkpoints.</numerusform>
            </translation>
        </message>
        <message>
            <source>Verifying step %1…</source>
            <translation>Schritt %1 wird geprüft…</translation>
        </message>
        <message>
            <source>Exporting step %1 to %2…</source>
            <translation>Schritt %1 wird nach %2 exportiert…</translation>
        </message>
        <message>
            <source>Export the checkpoint as .safetensors</source>
            <translation>Checkpoint als .safetensors exportieren</translation>
        </message>
        <message>
            <source>safetensors (*.safetensors)</source>
            <translation>safetensors (*.safetensors)</translation>
        </message>
        <message>
            <source>Verification cancelled.</source>
            <translation>Prüfung abgebrochen.</translation>
        </message>
        <message>
            <source>Export cancelled; nothing was written.</source>
            <translation>Export abgebrochen; es wurde nichts geschrieben.</translation>
        </message>
        <message>
            <source>Verified: every file and every shard matches its SHA-256.</source>
            <translation>Geprüft: Jede Datei und jeder Shard stimmt mit seiner SHA-256 überein.</translation>
        </message>
        <message>
            <source>The checkpoint is damaged: %1</source>
            <translation>Der Checkpoint ist beschädigt: %1</translation>
        </message>
        <message>
            <source>Exported to %1 (%2).</source>
            <translation>Nach %1 exportiert (%2).</translation>
        </message>
        <message>
            <source>The export failed: %1</source>
            <translation>Der Export ist fehlgeschlagen: %1</translation>
        </message>
    </context>
    <context>
        <name>sb::gui::CheckpointsModel</name>
        <message>
            <source>complete</source>
            <translation>vollständig</translation>
        </message>
        <message>
            <source>failed</source>
            <translation>fehlgeschlagen</translation>
        </message>
        <message>
            <source>deleted</source>
            <translation>gelöscht</translation>
        </message>
        <message>
            <source>verified</source>
            <translation>geprüft</translation>
        </message>
        <message>
            <source>corrupt</source>
            <translation>beschädigt</translation>
        </message>
        <message>
            <source>Found on disk; the run did not report it</source>
            <translation>Auf der Festplatte gefunden; der Lauf hat ihn nicht gemeldet</translation>
        </message>
        <message>
            <source>full (.safetensors)</source>
            <translation>vollständig (.safetensors)</translation>
        </message>
        <message>
            <source>sharded</source>
            <translation>geshardet</translation>
        </message>
        <message>
            <source>Step</source>
            <translation>Schritt</translation>
        </message>
        <message>
            <source>Saved</source>
            <translation>Gespeichert</translation>
        </message>
        <message>
            <source>Size</source>
            <translation>Größe</translation>
        </message>
        <message>
            <source>World size</source>
            <translation>Weltgröße</translation>
        </message>
        <message>
            <source>Kind</source>
            <translation>Art</translation>
        </message>
        <message>
            <source>Status</source>
            <translation>Status</translation>
        </message>
        <message>
            <source>Folder</source>
            <translation>Ordner</translation>
        </message>
        <message>
            <source>DCP (PyTorch)</source>
            <translation>DCP (PyTorch-Format)</translation>
        </message>
    </context>
    <context>
        <name>sb::gui::CheckpointsView</name>
        <message>
            <source>Write a new folder transformers loads with from_pretrained: config.json, Hugging Face names and layout, fp32 (Llama, Mistral, Qwen2, Qwen3 and GPT-2 plans)</source>
            <translation>Einen neuen Ordner schreiben, den transformers mit from_pretrained lädt: config.json, Hugging-Face-Namen und -Layout, fp32 (Pläne für Llama, Mistral, Qwen2, Qwen3 und GPT-2)</translation>
        </message>
        <message>
            <source>Export for Hugging Face…</source>
            <translation>Für Hugging Face exportieren…</translation>
        </message>
        <message>
            <source>Run</source>
            <translation>Lauf</translation>
        </message>
        <message>
            <source>Verify</source>
            <translation>Prüfen</translation>
        </message>
        <message>
            <source>Check every file&apos;s size and SHA-256 and every shard against the index</source>
            <translation>Größe und SHA-256 jeder Datei und jeden Shard mit dem Index abgleichen</translation>
        </message>
        <message>
            <source>Export .safetensors…</source>
            <translation>.safetensors exportieren…</translation>
        </message>
        <message>
            <source>Write the unsharded model as one .safetensors file any reader can load</source>
            <translation>Das ungeshardete Modell als eine .safetensors-Datei schreiben, die jeder Leser laden kann</translation>
        </message>
        <message>
            <source>Restore as a new run…</source>
            <translation>Als neuen Lauf wiederherstellen…</translation>
        </message>
        <message>
            <source>Start a new run that resumes from this checkpoint, at any world size</source>
            <translation>Einen neuen Lauf starten, der bei diesem Checkpoint fortsetzt, mit beliebiger Weltgröße</translation>
        </message>
        <message>
            <source>Cancel</source>
            <translation>Abbrechen</translation>
        </message>
        <message>
            <source>No runs yet, so no checkpoints. Launch a run from the Run area first.</source>
            <translation>Noch keine Läufe, also keine Checkpoints. Starten Sie zuerst einen Lauf im Bereich „Lauf“.</translation>
        </message>
        <message>
            <source>No checkpoints for this run. To save some, set a checkpoint folder (and how often) in Setup ▸ Training before launching; a run then writes step-NNNNNN folders there.</source>
            <translation>Dieser Lauf hat keine Checkpoints. Legen Sie vor dem Start unter Einrichtung ▸ Training einen Checkpoint-Ordner (und wie oft) fest; ein Lauf schreibt dann step-NNNNNN-Ordner dorthin.</translation>
        </message>
    </context>
    <context>
        <name>sb::gui::ClusterController</name>
        <message>
            <source>Every tested host is ready.</source>
            <translation>Jeder getestete Host ist bereit.</translation>
        </message>
        <message>
            <source>The SSH config for the hosts added by hand cannot be written: %1</source>
            <translation>Die SSH-Konfiguration für die von Hand hinzugefügten Hosts kann nicht geschrieben werden: %1</translation>
        </message>
        <message numerus="yes">
            <source>Testing %n host(s)…</source>
            <translation>
                <numerusform>%n Host wird getestet…</numerusform>
                <numerusform>%n Hosts werden getestet…</numerusform>
            </translation>
        </message>
        <message numerus="yes">
            <source>%n host(s) failed the test; see the details column.</source>
            <translation>
                <numerusform>%n Host hat den Test nicht bestanden; siehe die Spalte Details.</numerusform>
                <numerusform>%n Hosts haben den Test nicht bestanden; siehe die Spalte Details.</numerusform>
            </translation>
        </message>
        <message>
            <source>A test checks what the Run area&apos;s engine needs on each host: shardbench-core, by a one-step test run.</source>
            <translation>Ein Test prüft, was die Ausführung des Bereichs „Lauf“ auf jedem Host braucht: shardbench-core, mit einem Testlauf von einem Schritt.</translation>
        </message>
        <message>
            <source>A test checks what the Run area&apos;s engine needs on each host: %1 with PyTorch 2.6 or newer (fully_shard).</source>
            <translation>Ein Test prüft, was die Ausführung des Bereichs „Lauf“ auf jedem Host braucht: %1 mit PyTorch 2.6 oder neuer (fully_shard).</translation>
        </message>
        <message>
            <source>A test checks what the Run area&apos;s engine needs on each host: %1 with PyTorch 2.6 or newer (fully_shard), CUDA and NCCL (the plan runs on CUDA).</source>
            <translation>Ein Test prüft, was die Ausführung des Bereichs „Lauf“ auf jedem Host braucht: %1 mit PyTorch 2.6 oder neuer (fully_shard), CUDA und NCCL (der Plan läuft auf CUDA).</translation>
        </message>
    </context>
    <context>
        <name>sb::gui::ClusterView</name>
        <message>
            <source>Add host…</source>
            <translation>Host hinzufügen…</translation>
        </message>
        <message>
            <source>Edit…</source>
            <translation>Bearbeiten…</translation>
        </message>
        <message>
            <source>Remove</source>
            <translation>Entfernen</translation>
        </message>
        <message>
            <source>Test selected</source>
            <translation>Auswahl testen</translation>
        </message>
        <message>
            <source>Test all</source>
            <translation>Alle testen</translation>
        </message>
        <message>
            <source>Cancel</source>
            <translation>Abbrechen</translation>
        </message>
        <message>
            <source>%v of %m hosts tested</source>
            <translation>%v von %m Hosts getestet</translation>
        </message>
        <message>
            <source>SSH and remote hosts</source>
            <translation>SSH und entfernte Hosts</translation>
        </message>
        <message>
            <source>SSH config file</source>
            <translation>SSH-Konfigurationsdatei</translation>
        </message>
        <message>
            <source>known_hosts file</source>
            <translation>known_hosts-Datei</translation>
        </message>
        <message>
            <source>shardbench-core on the hosts</source>
            <translation>shardbench-core auf den Hosts</translation>
        </message>
        <message>
            <source>Run folder on the hosts</source>
            <translation>Laufordner auf den Hosts</translation>
        </message>
        <message>
            <source>~/.ssh/config</source>
            <translation>~/.ssh/config</translation>
        </message>
        <message>
            <source>~/.ssh/known_hosts</source>
            <translation>~/.ssh/known_hosts</translation>
        </message>
        <message>
            <source>A path, or a name found on the PATH of a non-interactive login</source>
            <translation>Ein Pfad oder ein Name, der im PATH einer nicht interaktiven Anmeldung gefunden wird</translation>
        </message>
        <message>
            <source>Where plans are copied on each host (relative to the home folder)</source>
            <translation>Wohin Pläne auf jedem Host kopiert werden (relativ zum Home-Ordner)</translation>
        </message>
    </context>
    <context>
        <name>sb::gui::CompareView</name>
        <message>
            <source>%1 (validation)</source>
            <translation>%1 (Validierung)</translation>
        </message>
        <message>
            <source>run %1</source>
            <translation>Lauf %1</translation>
        </message>
        <message>
            <source>run %1 (%2)</source>
            <translation>Lauf %1 (%2)</translation>
        </message>
        <message>
            <source>Align</source>
            <translation>Ausrichten</translation>
        </message>
        <message>
            <source>by step</source>
            <translation>nach Schritt</translation>
        </message>
        <message>
            <source>by time since the first step</source>
            <translation>nach Zeit seit dem ersten Schritt</translation>
        </message>
        <message>
            <source>Step</source>
            <translation>Schritt</translation>
        </message>
        <message>
            <source>Seconds</source>
            <translation>Sekunden</translation>
        </message>
        <message>
            <source>Loss</source>
            <translation>Verlust</translation>
        </message>
        <message>
            <source>Throughput</source>
            <translation>Durchsatz</translation>
        </message>
        <message>
            <source>Tokens/s</source>
            <translation>Tokens/s</translation>
        </message>
        <message>
            <source>Plan differences</source>
            <translation>Planunterschiede</translation>
        </message>
        <message>
            <source>The plans are the same</source>
            <translation>Die Pläne sind gleich</translation>
        </message>
        <message numerus="yes">
            <source>Plan differences: %n item(s)</source>
            <translation>
                <numerusform>Planunterschiede: %n Eintrag</numerusform>
                <numerusform>Planunterschiede: %n Einträge</numerusform>
            </translation>
        </message>
        <message>
            <source>The plan of %1</source>
            <translation>Der Plan von %1</translation>
        </message>
        <message>
            <source>Smoothing</source>
            <translation>Glättung</translation>
        </message>
        <message>
            <source>Exponential moving average of each run's loss and throughput, as TensorBoard smooths: 0 is none</source>
            <translation>Exponentiell gleitender Mittelwert von Loss und Durchsatz jedes Laufs, wie TensorBoard glättet: 0 ist keiner</translation>
        </message>
        <message>
            <source>by wall-clock time</source>
            <translation>nach Uhrzeit</translation>
        </message>
        <message>
            <source>Time</source>
            <translation>Uhrzeit</translation>
        </message>
        <message>
            <source>Loss and throughput</source>
            <translation>Verlust und Durchsatz</translation>
        </message>
        <message>
            <source>Memory per rank</source>
            <translation>Speicher je Rang</translation>
        </message>
    </context>
    <context>
        <name>sb::gui::ComparedMemoryChart</name>
        <message>
            <source> (first %1 ranks; the table lists all)</source>
            <translation> (die ersten %1 Ränge; die Tabelle nennt alle)</translation>
        </message>
        <message>
            <source>%1 estimated</source>
            <translation>%1 geschätzt</translation>
        </message>
        <message>
            <source>%1 estimated; it reported no memory</source>
            <translation>%1 geschätzt; kein Speicher gemeldet</translation>
        </message>
        <message>
            <source>%1 measured</source>
            <translation>%1 gemessen</translation>
        </message>
        <message>
            <source>%1 measured (%2)</source>
            <translation>%1 gemessen (%2)</translation>
        </message>
        <message>
            <source>%1, rank %2</source>
            <translation>%1, Rang %2</translation>
        </message>
        <message>
            <source>GiB</source>
            <translation>GiB</translation>
        </message>
        <message>
            <source>MiB</source>
            <translation>MiB</translation>
        </message>
        <message>
            <source>Peak memory per rank: measured (solid) against the estimate for each run&apos;s plan (light)</source>
            <translation>Spitzenspeicher je Rang: gemessen (kräftig) gegen die Schätzung für den Plan jedes Laufs (hell)</translation>
        </message>
        <message>
            <source>Rank</source>
            <translation>Rang</translation>
        </message>
        <message>
            <source>difference: %1</source>
            <translation>Abweichung: %1</translation>
        </message>
        <message>
            <source>estimated: %1</source>
            <translation>geschätzt: %1</translation>
        </message>
        <message>
            <source>measured: %1</source>
            <translation>gemessen: %1</translation>
        </message>
    </context>
    <context>
        <name>sb::gui::ComparedMemoryModel</name>
        <message>
            <source>%1%2 %</source>
            <translation>%1%2 %</translation>
        </message>
        <message>
            <source>Difference</source>
            <translation>Abweichung</translation>
        </message>
        <message>
            <source>Peak estimated</source>
            <translation>Spitze geschätzt</translation>
        </message>
        <message>
            <source>Peak measured</source>
            <translation>Spitze gemessen</translation>
        </message>
        <message>
            <source>Rank</source>
            <translation>Rang</translation>
        </message>
        <message>
            <source>Run</source>
            <translation>Lauf</translation>
        </message>
        <message>
            <source>The measured peak over (+) or under (−) the estimate for this run&apos;s plan</source>
            <translation>Die gemessene Spitze über (+) oder unter (−) der Schätzung für den Plan dieses Laufs</translation>
        </message>
        <message>
            <source>The plan this run recorded does not validate, so it has no estimate</source>
            <translation>Der Plan, den dieser Lauf gespeichert hat, ist nicht gültig; es gibt also keine Schätzung</translation>
        </message>
        <message>
            <source>This rank of the run reported no memory</source>
            <translation>Dieser Rang des Laufs hat keinen Speicher gemeldet</translation>
        </message>
        <message>
            <source>no estimate</source>
            <translation>keine Schätzung</translation>
        </message>
        <message>
            <source>not reported</source>
            <translation>nicht gemeldet</translation>
        </message>
    </context>
    <context>
        <name>sb::gui::ConnectionText</name>
        <message>
            <source>this machine</source>
            <translation>dieser Rechner</translation>
        </message>
        <message>
            <source>%1: the test was cancelled</source>
            <translation>%1: Der Test wurde abgebrochen</translation>
        </message>
        <message>
            <source>%1 is not reachable: %2</source>
            <translation>%1 ist nicht erreichbar: %2</translation>
        </message>
        <message>
            <source>%1: its unknown host key %2 was refused, so shardbench did not log in</source>
            <translation>%1: Sein unbekannter Host-Schlüssel %2 wurde abgelehnt, daher hat sich shardbench nicht angemeldet</translation>
        </message>
        <message>
            <source>%1: the host key has CHANGED (it is now %2), so the connection was refused. Someone may be intercepting it, or the host was reinstalled. If the change is expected, remove the old key from known_hosts (ssh-keygen -R) and test again.</source>
            <translation>%1: Der Host-Schlüssel hat sich GEÄNDERT (jetzt %2), daher wurde die Verbindung abgelehnt. Jemand könnte sie abfangen, oder der Host wurde neu installiert. Ist die Änderung erwartet, entfernen Sie den alten Schlüssel aus known_hosts (ssh-keygen -R) und testen Sie erneut.</translation>
        </message>
        <message>
            <source>%1 offered a %2 key, but known_hosts holds a key of another type for it, so the connection was refused: this can mean someone is intercepting it.</source>
            <translation>%1 bot einen %2-Schlüssel an, aber known_hosts enthält für ihn einen Schlüssel anderen Typs, daher wurde die Verbindung abgelehnt: Das kann bedeuten, dass jemand sie abfängt.</translation>
        </message>
        <message>
            <source>%1: login refused, no key was accepted. Install your public key on the host; a key with a passphrase must be loaded into ssh-agent. (%2)</source>
            <translation>%1: Anmeldung abgelehnt, kein Schlüssel wurde akzeptiert. Installieren Sie Ihren öffentlichen Schlüssel auf dem Host; ein Schlüssel mit Passphrase muss in ssh-agent geladen sein. (%2)</translation>
        </message>
        <message>
            <source>%1: shardbench-core was not found (%2)</source>
            <translation>%1: shardbench-core wurde nicht gefunden (%2)</translation>
        </message>
        <message>
            <source>%1: shardbench-core did not start (exit code %2)</source>
            <translation>%1: shardbench-core ist nicht gestartet (Exit-Code %2)</translation>
        </message>
        <message>
            <source>%1: shardbench-core did not start: %2</source>
            <translation>%1: shardbench-core ist nicht gestartet: %2</translation>
        </message>
        <message>
            <source>%1: shardbench-core did not finish its test run in time</source>
            <translation>%1: shardbench-core hat seinen Testlauf nicht rechtzeitig beendet</translation>
        </message>
        <message>
            <source>%1: %2</source>
            <translation>%1: %2</translation>
        </message>
        <message>
            <source>none (no nvidia-smi)</source>
            <translation>keine (kein nvidia-smi)</translation>
        </message>
        <message>
            <source>none (nvidia-smi sees no GPU)</source>
            <translation>keine (nvidia-smi sieht keine GPU)</translation>
        </message>
        <message numerus="yes">
            <source>%n × %1</source>
            <translation>
                <numerusform>%n × %1</numerusform>
                <numerusform>%n × %1</numerusform>
            </translation>
        </message>
        <message>
            <source>%1 (LibTorch %2, %3)</source>
            <translation>%1 (LibTorch %2, %3)</translation>
        </message>
        <message>
            <source>reachable at %1:%2</source>
            <translation>erreichbar unter %1:%2</translation>
        </message>
        <message>
            <source>logged in as %1 at %2:%3</source>
            <translation>als %1 an %2:%3 angemeldet</translation>
        </message>
        <message>
            <source>GPUs: %1</source>
            <translation>GPUs: %1</translation>
        </message>
        <message>
            <source>shardbench-core %1</source>
            <translation>shardbench-core %1</translation>
        </message>
        <message>
            <source>%1 s</source>
            <translation>%1 s</translation>
        </message>
        <message>
            <source>%1: Python was not found (%2)</source>
            <translation>%1: Python wurde nicht gefunden (%2)</translation>
        </message>
        <message>
            <source>%1: %2 cannot import PyTorch (%3)</source>
            <translation>%1: %2 kann PyTorch nicht importieren (%3)</translation>
        </message>
        <message>
            <source>%1: PyTorch %2 has no fully_shard; the PyTorch engine needs PyTorch 2.6 or newer</source>
            <translation>%1: PyTorch %2 hat kein fully_shard; die PyTorch-Engine braucht PyTorch 2.6 oder neuer</translation>
        </message>
        <message>
            <source>%1: the plan runs on CUDA but PyTorch %2 there has %3</source>
            <translation>%1: Der Plan läuft auf CUDA, aber PyTorch %2 dort hat %3</translation>
        </message>
        <message>
            <source>no NCCL</source>
            <translation>kein NCCL</translation>
        </message>
        <message>
            <source>no CUDA</source>
            <translation>kein CUDA</translation>
        </message>
        <message>
            <source>CUDA and NCCL</source>
            <translation>CUDA und NCCL</translation>
        </message>
        <message>
            <source>Python %1, PyTorch %2 (%3)</source>
            <translation>Python %1, PyTorch %2 (%3)</translation>
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
        <name>sb::gui::FailureText</name>
        <message>
            <source>rank %1 on %2 exited with code %3</source>
            <translation>Rang %1 auf %2 wurde mit Code %3 beendet</translation>
        </message>
        <message>
            <source>rank %1 on %2 exited with code 1 (runtime failure)</source>
            <translation>Rang %1 auf %2 wurde mit Code 1 beendet (Laufzeitfehler)</translation>
        </message>
        <message>
            <source>rank %1 on %2 exited with code 2 (bad input)</source>
            <translation>Rang %1 auf %2 wurde mit Code 2 beendet (ungültige Eingabe)</translation>
        </message>
        <message>
            <source>rank %1 on %2 exited with code 3 (rendezvous failed)</source>
            <translation>Rang %1 auf %2 wurde mit Code 3 beendet (Rendezvous fehlgeschlagen)</translation>
        </message>
        <message>
            <source>rank %1 on %2 exited with code 126 (the core could not be executed)</source>
            <translation>Rang %1 auf %2 wurde mit Code 126 beendet (der Kern konnte nicht ausgeführt werden)</translation>
        </message>
        <message>
            <source>rank %1 on %2 exited with code 127 (the core was not found)</source>
            <translation>Rang %1 auf %2 wurde mit Code 127 beendet (der Kern wurde nicht gefunden)</translation>
        </message>
        <message>
            <source>rank %1 on %2 was killed by signal %3 (%4)</source>
            <translation>Rang %1 auf %2 wurde durch Signal %3 (%4) beendet</translation>
        </message>
        <message>
            <source>rank %1 on %2 was stopped (%3)</source>
            <translation>Rang %1 auf %2 wurde angehalten (%3)</translation>
        </message>
        <message>
            <source>rank %1 on %2 was lost: %3</source>
            <translation>Rang %1 auf %2 ging verloren: %3</translation>
        </message>
        <message>
            <source>rank %1 on %2 could not be started: %3</source>
            <translation>Rang %1 auf %2 konnte nicht gestartet werden: %3</translation>
        </message>
        <message>
            <source>launch failed: %1</source>
            <translation>Start fehlgeschlagen: %1</translation>
        </message>
        <message>
            <source>the ranks stopped without finishing</source>
            <translation>die Ränge endeten, ohne fertig zu werden</translation>
        </message>
        <message>
            <source>the launcher (pid %1 on %2) is gone; last heard from at %3</source>
            <translation>der Launcher (PID %1 auf %2) ist nicht mehr da; zuletzt gemeldet um %3</translation>
        </message>
        <message>
            <source>the launcher (pid %1 on %2) is gone; last heard from at an unknown time</source>
            <translation>der Launcher (PID %1 auf %2) ist nicht mehr da; zuletzt gemeldet zu unbekannter Zeit</translation>
        </message>
        <message>
            <source>the run could not start: %1</source>
            <translation>der Lauf konnte nicht starten: %1</translation>
        </message>
        <message>
            <source>rank %1 on %2 lost its connection (ssh exited with 255)</source>
            <translation>Rang %1 auf %2 hat seine Verbindung verloren (ssh wurde mit 255 beendet)</translation>
        </message>
        <message>
            <source>rank %1 on %2 could not be reached (ssh exited with 255)</source>
            <translation>Rang %1 auf %2 war nicht erreichbar (ssh wurde mit 255 beendet)</translation>
        </message>
        <message>
            <source>stopped on request</source>
            <translation>auf Anforderung angehalten</translation>
        </message>
        <message>
            <source>cancelled by the user</source>
            <translation>vom Benutzer abgebrochen</translation>
        </message>
        <message>
            <source>cancelled by the user (%1)</source>
            <translation>vom Benutzer abgebrochen (%1)</translation>
        </message>
        <message>
            <source>cancelled from the workbench</source>
            <translation>aus der Workbench abgebrochen</translation>
        </message>
        <message>
            <source>Slurm ended the job (SIGTERM: its time limit, an scancel of the job, a preemption)</source>
            <translation>Slurm hat den Job beendet (SIGTERM: sein Zeitlimit, ein scancel des Jobs, eine Verdrängung)</translation>
        </message>
        <message>
            <source>1 checkpoint failed (%1)</source>
            <translation>1 Checkpoint ist fehlgeschlagen (%1)</translation>
        </message>
        <message>
            <source>%1 checkpoints failed (%2)</source>
            <translation>%1 Checkpoints sind fehlgeschlagen (%2)</translation>
        </message>
        <message>
            <source>1 line lost</source>
            <translation>1 Zeile verloren</translation>
        </message>
        <message>
            <source>%1 lines lost</source>
            <translation>%1 Zeilen verloren</translation>
        </message>
        <message>
            <source>the supervisor on %1 is gone (last heard from at %2)</source>
            <translation>der Supervisor auf %1 ist nicht mehr da (zuletzt gemeldet um %2)</translation>
        </message>
        <message>
            <source>queued: Slurm job %1 is %2</source>
            <translation>in der Warteschlange: Slurm-Job %1 ist %2</translation>
        </message>
        <message>
            <source>Slurm job %1 ended %2 and the supervisor recorded no final state (see %3/slurm-%1.out)</source>
            <translation>Slurm-Job %1 endete mit %2, und der Supervisor hat keinen Endzustand festgehalten (siehe %3/slurm-%1.out)</translation>
        </message>
        <message>
            <source>Slurm job %1 ended %2 before the supervisor started</source>
            <translation>Slurm-Job %1 endete mit %2, bevor der Supervisor startete</translation>
        </message>
        <message>
            <source>Slurm job %1 is unknown to Slurm (squeue and sacct) and the supervisor recorded no final state (see %2/slurm-%1.out)</source>
            <translation>Slurm-Job %1 ist Slurm unbekannt (squeue und sacct), und der Supervisor hat keinen Endzustand festgehalten (siehe %2/slurm-%1.out)</translation>
        </message>
        <message>
            <source>Slurm job %1 is unknown to Slurm (squeue and sacct) before the supervisor started</source>
            <translation>Slurm-Job %1 ist Slurm unbekannt (squeue und sacct), bevor der Supervisor startete</translation>
        </message>
        <message numerus="yes">
            <source> (after %n restart(s))</source>
            <translation>
                <numerusform> (nach %n Neustart)</numerusform>
                <numerusform> (nach %n Neustarts)</numerusform>
            </translation>
        </message>
    </context>
    <context>
        <name>sb::gui::FileController</name>
        <message>
            <source>New plan for %1; the launch starts from its weights</source>
            <translation>Neuer Plan für %1; der Start beginnt mit seinen Gewichten</translation>
        </message>
        <message>
            <source>New plan for %1 (no weights in the folder)</source>
            <translation>Neuer Plan für %1 (keine Gewichte im Ordner)</translation>
        </message>
        <message>
            <source>The weights in %1 do not match its config.json: %2</source>
            <translation>Die Gewichte in %1 passen nicht zu seiner config.json: %2</translation>
        </message>
        <message>
            <source>New plan from a Hugging Face model folder</source>
            <translation>Neuer Plan aus einem Hugging-Face-Modellordner</translation>
        </message>
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
        <name>sb::gui::HostDialog</name>
        <message>
            <source>Add a host</source>
            <translation>Host hinzufügen</translation>
        </message>
        <message>
            <source>Edit host %1</source>
            <translation>Host %1 bearbeiten</translation>
        </message>
        <message>
            <source>22 (default)</source>
            <translation>22 (Standard)</translation>
        </message>
        <message>
            <source>the plan&apos;s processes per node</source>
            <translation>die Prozesse je Knoten des Plans</translation>
        </message>
        <message>
            <source>gpu-node-1</source>
            <translation>gpu-node-1</translation>
        </message>
        <message>
            <source>the name itself, or 10.0.0.11</source>
            <translation>der Name selbst oder 10.0.0.11</translation>
        </message>
        <message>
            <source>your user name</source>
            <translation>Ihr Benutzername</translation>
        </message>
        <message>
            <source>ssh-agent and ~/.ssh/id_*</source>
            <translation>ssh-agent und ~/.ssh/id_*</translation>
        </message>
        <message>
            <source>Browse…</source>
            <translation>Durchsuchen…</translation>
        </message>
        <message>
            <source>Private key file</source>
            <translation>Datei des privaten Schlüssels</translation>
        </message>
        <message>
            <source>Name</source>
            <translation>Name</translation>
        </message>
        <message>
            <source>Address</source>
            <translation>Adresse</translation>
        </message>
        <message>
            <source>User</source>
            <translation>Benutzer</translation>
        </message>
        <message>
            <source>Port</source>
            <translation>Port</translation>
        </message>
        <message>
            <source>Key file</source>
            <translation>Schlüsseldatei</translation>
        </message>
        <message>
            <source>Ranks (GPUs)</source>
            <translation>Ränge (GPUs)</translation>
        </message>
        <message>
            <source>shardbench logs in with keys only (ssh-agent or the key file); it never asks for or stores a password. A key with a passphrase must be loaded into ssh-agent.</source>
            <translation>shardbench meldet sich nur mit Schlüsseln an (ssh-agent oder die Schlüsseldatei); es fragt nie nach einem Passwort und speichert keines. Ein Schlüssel mit Passphrase muss in ssh-agent geladen sein.</translation>
        </message>
        <message>
            <source>The name cannot be used: %1</source>
            <translation>Der Name kann nicht verwendet werden: %1</translation>
        </message>
        <message>
            <source>no user@ here; use the User field</source>
            <translation>kein user@ hier; verwenden Sie das Feld Benutzer</translation>
        </message>
        <message>
            <source>The address cannot be used: %1</source>
            <translation>Die Adresse kann nicht verwendet werden: %1</translation>
        </message>
        <message>
            <source>The user name cannot be used: %1</source>
            <translation>Der Benutzername kann nicht verwendet werden: %1</translation>
        </message>
        <message>
            <source>it contains @</source>
            <translation>er enthält @</translation>
        </message>
        <message>
            <source>There is already a host named %1.</source>
            <translation>Es gibt bereits einen Host namens %1.</translation>
        </message>
    </context>
    <context>
        <name>sb::gui::HostKeyDialog</name>
        <message>
            <source>Trust and remember</source>
            <translation>Vertrauen und merken</translation>
        </message>
        <message>
            <source>Trust this time</source>
            <translation>Diesmal vertrauen</translation>
        </message>
        <message>
            <source>Refuse</source>
            <translation>Ablehnen</translation>
        </message>
        <message>
            <source>Unknown host key</source>
            <translation>Unbekannter Host-Schlüssel</translation>
        </message>
        <message>
            <source>&lt;b&gt;%1&lt;/b&gt; is not in your known hosts. Before you trust it, compare its fingerprint with the one the host&apos;s administrator gives you (on the host: &lt;tt&gt;ssh-keygen -lf /etc/ssh/ssh_host_ed25519_key.pub&lt;/tt&gt;).</source>
            <translation>&lt;b&gt;%1&lt;/b&gt; ist nicht in Ihren bekannten Hosts. Bevor Sie ihm vertrauen, vergleichen Sie seinen Fingerabdruck mit dem, den Ihnen die Administration des Hosts nennt (auf dem Host: &lt;tt&gt;ssh-keygen -lf /etc/ssh/ssh_host_ed25519_key.pub&lt;/tt&gt;).</translation>
        </message>
        <message>
            <source>Address</source>
            <translation>Adresse</translation>
        </message>
        <message>
            <source>Fingerprint</source>
            <translation>Fingerabdruck</translation>
        </message>
        <message>
            <source>Remembered in</source>
            <translation>Gemerkt in</translation>
        </message>
        <message>
            <source>~/.ssh/known_hosts</source>
            <translation>~/.ssh/known_hosts</translation>
        </message>
    </context>
    <context>
        <name>sb::gui::HostsModel</name>
        <message>
            <source>This machine</source>
            <translation>Dieser Rechner</translation>
        </message>
        <message>
            <source>plan&apos;s</source>
            <translation>laut Plan</translation>
        </message>
        <message>
            <source>local</source>
            <translation>lokal</translation>
        </message>
        <message>
            <source>added by hand</source>
            <translation>von Hand hinzugefügt</translation>
        </message>
        <message>
            <source>SSH config</source>
            <translation>SSH-Konfiguration</translation>
        </message>
        <message>
            <source>testing…</source>
            <translation>wird getestet…</translation>
        </message>
        <message>
            <source>yes</source>
            <translation>ja</translation>
        </message>
        <message>
            <source>no</source>
            <translation>nein</translation>
        </message>
        <message>
            <source>as %1</source>
            <translation>als %1</translation>
        </message>
        <message>
            <source>key refused</source>
            <translation>Schlüssel abgelehnt</translation>
        </message>
        <message>
            <source>key changed</source>
            <translation>Schlüssel geändert</translation>
        </message>
        <message>
            <source>not found</source>
            <translation>nicht gefunden</translation>
        </message>
        <message>
            <source>not working</source>
            <translation>funktioniert nicht</translation>
        </message>
        <message>
            <source>Host</source>
            <translation>Host</translation>
        </message>
        <message>
            <source>Address</source>
            <translation>Adresse</translation>
        </message>
        <message>
            <source>User</source>
            <translation>Benutzer</translation>
        </message>
        <message>
            <source>Port</source>
            <translation>Port</translation>
        </message>
        <message>
            <source>Key file</source>
            <translation>Schlüsseldatei</translation>
        </message>
        <message>
            <source>Ranks (GPUs)</source>
            <translation>Ränge (GPUs)</translation>
        </message>
        <message>
            <source>From</source>
            <translation>Quelle</translation>
        </message>
        <message>
            <source>Reachable</source>
            <translation>Erreichbar</translation>
        </message>
        <message>
            <source>Logged in</source>
            <translation>Angemeldet</translation>
        </message>
        <message>
            <source>GPUs seen</source>
            <translation>Gefundene GPUs</translation>
        </message>
        <message>
            <source>Details</source>
            <translation>Details</translation>
        </message>
        <message>
            <source>Engine</source>
            <translation>Ausführung</translation>
        </message>
        <message>
            <source>no PyTorch</source>
            <translation>kein PyTorch</translation>
        </message>
        <message>
            <source>PyTorch %1: too old</source>
            <translation>PyTorch %1: zu alt</translation>
        </message>
        <message>
            <source>PyTorch %1: no NCCL</source>
            <translation>PyTorch %1: kein NCCL</translation>
        </message>
        <message>
            <source>PyTorch %1: no CUDA</source>
            <translation>PyTorch %1: kein CUDA</translation>
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
            <source>Llama 3.1 8B (Llama-3 8B with RoPE scaling, 128k positions)</source>
            <translation>Llama 3.1 8B (Llama-3 8B mit RoPE-Skalierung, 128k Positionen)</translation>
        </message>
        <message>
            <source>Llama 3.1 and 3.3 70B (Llama-3 70B with RoPE scaling, 128k positions)</source>
            <translation>Llama 3.1 und 3.3 70B (Llama-3 70B mit RoPE-Skalierung, 128k Positionen)</translation>
        </message>
        <message>
            <source>Llama 3.1 405B, 126 layers, 16384 wide, RoPE scaling</source>
            <translation>Llama 3.1 405B, 126 Schichten, Breite 16384, RoPE-Skalierung</translation>
        </message>
        <message>
            <source>Llama 3.2 1B, 16 layers, 2048 wide, GQA 32/8, tied embeddings</source>
            <translation>Llama 3.2 1B, 16 Schichten, Breite 2048, GQA 32/8, gebundene Embeddings</translation>
        </message>
        <message>
            <source>Llama 3.2 3B, 28 layers, 3072 wide, GQA 24/8, tied embeddings</source>
            <translation>Llama 3.2 3B, 28 Schichten, Breite 3072, GQA 24/8, gebundene Embeddings</translation>
        </message>
        <message>
            <source>Mistral 7B v0.3, 32 layers, 4096 wide, GQA 32/8</source>
            <translation>Mistral 7B v0.3, 32 Schichten, Breite 4096, GQA 32/8</translation>
        </message>
        <message>
            <source>Qwen2.5 0.5B, 24 layers, 896 wide, GQA 14/2, q/k/v bias, tied embeddings</source>
            <translation>Qwen2.5 0.5B, 24 Schichten, Breite 896, GQA 14/2, q/k/v-Bias, gebundene Embeddings</translation>
        </message>
        <message>
            <source>Qwen2.5 1.5B, 28 layers, 1536 wide, GQA 12/2, q/k/v bias, tied embeddings</source>
            <translation>Qwen2.5 1.5B, 28 Schichten, Breite 1536, GQA 12/2, q/k/v-Bias, gebundene Embeddings</translation>
        </message>
        <message>
            <source>Qwen2.5 3B, 36 layers, 2048 wide, GQA 16/2, q/k/v bias, tied embeddings</source>
            <translation>Qwen2.5 3B, 36 Schichten, Breite 2048, GQA 16/2, q/k/v-Bias, gebundene Embeddings</translation>
        </message>
        <message>
            <source>Qwen2.5 7B, 28 layers, 3584 wide, GQA 28/4, q/k/v bias</source>
            <translation>Qwen2.5 7B, 28 Schichten, Breite 3584, GQA 28/4, q/k/v-Bias</translation>
        </message>
        <message>
            <source>Qwen2.5 14B, 48 layers, 5120 wide, GQA 40/8, q/k/v bias</source>
            <translation>Qwen2.5 14B, 48 Schichten, Breite 5120, GQA 40/8, q/k/v-Bias</translation>
        </message>
        <message>
            <source>Qwen2.5 32B, 64 layers, 5120 wide, GQA 40/8, q/k/v bias</source>
            <translation>Qwen2.5 32B, 64 Schichten, Breite 5120, GQA 40/8, q/k/v-Bias</translation>
        </message>
        <message>
            <source>Qwen2.5 72B, 80 layers, 8192 wide, GQA 64/8, q/k/v bias</source>
            <translation>Qwen2.5 72B, 80 Schichten, Breite 8192, GQA 64/8, q/k/v-Bias</translation>
        </message>
        <message>
            <source>Qwen3 0.6B, 28 layers, 1024 wide, GQA 16/8, q/k norms, tied embeddings</source>
            <translation>Qwen3 0.6B, 28 Schichten, Breite 1024, GQA 16/8, q/k-Normen, gebundene Embeddings</translation>
        </message>
        <message>
            <source>Qwen3 1.7B, 28 layers, 2048 wide, GQA 16/8, q/k norms, tied embeddings</source>
            <translation>Qwen3 1.7B, 28 Schichten, Breite 2048, GQA 16/8, q/k-Normen, gebundene Embeddings</translation>
        </message>
        <message>
            <source>Qwen3 4B, 36 layers, 2560 wide, GQA 32/8, q/k norms, tied embeddings</source>
            <translation>Qwen3 4B, 36 Schichten, Breite 2560, GQA 32/8, q/k-Normen, gebundene Embeddings</translation>
        </message>
        <message>
            <source>Qwen3 8B, 36 layers, 4096 wide, GQA 32/8, q/k norms</source>
            <translation>Qwen3 8B, 36 Schichten, Breite 4096, GQA 32/8, q/k-Normen</translation>
        </message>
        <message>
            <source>Qwen3 14B, 40 layers, 5120 wide, GQA 40/8, q/k norms</source>
            <translation>Qwen3 14B, 40 Schichten, Breite 5120, GQA 40/8, q/k-Normen</translation>
        </message>
        <message>
            <source>Qwen3 32B, 64 layers, 5120 wide, GQA 64/8, q/k norms</source>
            <translation>Qwen3 32B, 64 Schichten, Breite 5120, GQA 64/8, q/k-Normen</translation>
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
            <source>Mistral</source>
            <translation>Mistral</translation>
        </message>
        <message>
            <source>Qwen2</source>
            <translation>Qwen2</translation>
        </message>
        <message>
            <source>Qwen3</source>
            <translation>Qwen3</translation>
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
            <source>Sharded gradients, in the parameters&apos; dtype</source>
            <translation>Geshardete Gradienten im Datentyp der Parameter</translation>
        </message>
        <message>
            <source>AdamW exp_avg and exp_avg_sq, in the parameters&apos; dtype</source>
            <translation>AdamW exp_avg und exp_avg_sq im Datentyp der Parameter</translation>
        </message>
    </context>
    <context>
        <name>sb::gui::GoingRunsBar</name>
        <message>
            <source>Show in Runs</source>
            <translation>In Läufe zeigen</translation>
        </message>
        <message>
            <source>Attach</source>
            <translation>Ankoppeln</translation>
        </message>
        <message>
            <source>Attach to run %1</source>
            <translation>An Lauf %1 ankoppeln</translation>
        </message>
        <message>
            <source>this machine</source>
            <translation>diesem Rechner</translation>
        </message>
        <message>
            <source>Run %1, detached on %2, was still going when last heard from.</source>
            <translation>Lauf %1, abgekoppelt auf %2, lief bei der letzten Meldung noch.</translation>
        </message>
        <message>
            <source>Run %1 (%2), detached on %3, was still going when last heard from.</source>
            <translation>Lauf %1 (%2), abgekoppelt auf %3, lief bei der letzten Meldung noch.</translation>
        </message>
        <message numerus="yes">
            <source>%n detached run(s) were still going when last heard from: %1.</source>
            <translation>
                <numerusform>%n abgekoppelter Lauf lief bei der letzten Meldung noch: %1.</numerusform>
                <numerusform>%n abgekoppelte Läufe liefen bei der letzten Meldung noch: %1.</numerusform>
            </translation>
        </message>
    </context>
    <context>
        <name>sb::gui::RunNotifier</name>
        <message>
            <source>&amp;Notify about runs (end, failure, stall, loss not finite)</source>
            <translation>Über Läufe &amp;benachrichtigen (Ende, Fehler, Stillstand, nicht endlicher Verlust)</translation>
        </message>
        <message>
            <source>Alert &amp;command…</source>
            <translation>&amp;Befehl bei Meldungen…</translation>
        </message>
        <message>
            <source>Run %1</source>
            <translation>Lauf %1</translation>
        </message>
        <message>
            <source>Run %1 (%2)</source>
            <translation>Lauf %1 (%2)</translation>
        </message>
        <message>
            <source>%1 %2 at step %3.</source>
            <translation>%1: %2 bei Schritt %3.</translation>
        </message>
        <message>
            <source>%1 failed at step %2: %3</source>
            <translation>%1 ist bei Schritt %2 fehlgeschlagen: %3</translation>
        </message>
        <message>
            <source>%1 has reported no step for %2 s (last step %3).</source>
            <translation>%1 hat seit %2 s keinen Schritt gemeldet (letzter Schritt %3).</translation>
        </message>
        <message>
            <source>%1 reported a loss of %2 at step %3.</source>
            <translation>%1 hat bei Schritt %3 einen Verlust von %2 gemeldet.</translation>
        </message>
        <message>
            <source>Alert command</source>
            <translation>Befehl bei Meldungen</translation>
        </message>
        <message>
            <source>A command run on each alert (empty: none), not through a shell. Its environment says what happened: SHARDBENCH_ALERT (finished, failed, stalled, nan_loss), SHARDBENCH_RUN_ID, SHARDBENCH_RUN_NAME, SHARDBENCH_MESSAGE.</source>
            <translation>Ein Befehl, der bei jeder Meldung ausgeführt wird (leer: keiner), ohne Shell. Seine Umgebung sagt, was geschah: SHARDBENCH_ALERT (finished, failed, stalled, nan_loss), SHARDBENCH_RUN_ID, SHARDBENCH_RUN_NAME, SHARDBENCH_MESSAGE.</translation>
        </message>
    </context>
    <context>
        <name>sb::gui::LaunchBar</name>
        <message>
            <source>this machine</source>
            <translation>diesem Rechner</translation>
        </message>
        <message>
            <source>a Slurm allocation</source>
            <translation>einer Slurm-Zuteilung</translation>
        </message>
        <message>
            <source>Slurm (partition %1)</source>
            <translation>Slurm (Partition %1)</translation>
        </message>
        <message>
            <source>no host chosen</source>
            <translation>keinem Host (keiner gewählt)</translation>
        </message>
        <message>
            <source>Run on</source>
            <translation>Ausführen auf</translation>
        </message>
        <message>
            <source>Where the next run goes: choose it in the Run area</source>
            <translation>Wo der nächste Lauf läuft: im Bereich Lauf wählen</translation>
        </message>
        <message>
            <source>Keep running</source>
            <translation>Weiterlaufen</translation>
        </message>
        <message>
            <source>Detached: the run goes on when the workbench closes (as the Run area's &quot;Keep running when the workbench closes&quot;)</source>
            <translation>Abgekoppelt: der Lauf geht weiter, wenn die Werkbank geschlossen wird (wie „Weiterlaufen, wenn die Werkbank geschlossen wird“ im Bereich Lauf)</translation>
        </message>
        <message>
            <source>Launch run</source>
            <translation>Lauf starten</translation>
        </message>
        <message>
            <source>Start the open plan as a new run on %1</source>
            <translation>Den offenen Plan als neuen Lauf auf %1 starten</translation>
        </message>
        <message>
            <source>Launch detached</source>
            <translation>Abgekoppelt starten</translation>
        </message>
        <message>
            <source>Start the open plan as a detached run on %1: it keeps running when the workbench closes</source>
            <translation>Den offenen Plan als abgekoppelten Lauf auf %1 starten: er läuft weiter, wenn die Werkbank geschlossen wird</translation>
        </message>
        <message>
            <source>Restore run %1 at step %2…</source>
            <translation>Lauf %1 bei Schritt %2 wiederherstellen…</translation>
        </message>
        <message>
            <source>Restore the checkpoint chosen in the Checkpoints area as a new run</source>
            <translation>Den im Bereich Checkpoints gewählten Checkpoint als neuen Lauf wiederherstellen</translation>
        </message>
        <message>
            <source>A run is being checked, runs or is followed: the Run area shows it</source>
            <translation>Ein Lauf wird geprüft, läuft oder wird verfolgt: der Bereich Lauf zeigt ihn</translation>
        </message>
        <message numerus="yes">
            <source>%n host(s): %1</source>
            <translation>
                <numerusform>%n Host: %1</numerusform>
                <numerusform>%n Hosts: %1</numerusform>
            </translation>
        </message>
    </context>
    <context>
        <name>sb::gui::LaunchPanel</name>
        <message>
            <source>Choose…</source>
            <translation>Auswählen…</translation>
        </message>
        <message>
            <source>A .safetensors file or a Hugging Face model folder; over SSH and Slurm the path on the cluster. Checked against the plan before any rank starts, by this machine or over SSH by the host's shardbench-core; a restart that resumes a checkpoint does not read them</source>
            <translation>Eine .safetensors-Datei oder ein Hugging-Face-Modellordner; über SSH und Slurm der Pfad auf dem Cluster. Vor dem Start jedes Ranks gegen den Plan geprüft, von diesem Rechner oder über SSH vom shardbench-core des Hosts; ein Neustart, der einen Checkpoint fortsetzt, liest sie nicht</translation>
        </message>
        <message>
            <source>none: the plan's random initialisation</source>
            <translation>keine: die zufällige Initialisierung des Plans</translation>
        </message>
        <message>
            <source>Weights (*.safetensors *.safetensors.index.json);;All files (*)</source>
            <translation>Gewichte (*.safetensors *.safetensors.index.json);;Alle Dateien (*)</translation>
        </message>
        <message>
            <source>Start from weights</source>
            <translation>Von Gewichten starten</translation>
        </message>
        <message>
            <source>Run on</source>
            <translation>Ausführen auf</translation>
        </message>
        <message>
            <source>Name</source>
            <translation>Name</translation>
        </message>
        <message>
            <source>Restarts</source>
            <translation>Neustarts</translation>
        </message>
        <message>
            <source>optional, to find the run again</source>
            <translation>optional, um den Lauf wiederzufinden</translation>
        </message>
        <message>
            <source>How often a failed run is started again, from its latest complete checkpoint (as torchrun&apos;s --max-restarts)</source>
            <translation>Wie oft ein fehlgeschlagener Lauf erneut gestartet wird, ab seinem letzten vollständigen Checkpoint (wie --max-restarts von torchrun)</translation>
        </message>
        <message>
            <source>Check</source>
            <translation>Prüfen</translation>
        </message>
        <message>
            <source>Run the pre-flight checks without launching</source>
            <translation>Die Vorabprüfungen ausführen, ohne zu starten</translation>
        </message>
        <message>
            <source>Launch</source>
            <translation>Starten</translation>
        </message>
        <message>
            <source>Stop now</source>
            <translation>Sofort stoppen</translation>
        </message>
        <message>
            <source>Stop</source>
            <translation>Stoppen</translation>
        </message>
        <message>
            <source>Stop every rank (SIGTERM, then SIGKILL after the grace); press again to skip the grace</source>
            <translation>Jeden Rang stoppen (SIGTERM, nach der Karenzzeit SIGKILL); erneut drücken, um die Karenzzeit zu überspringen</translation>
        </message>
        <message>
            <source>%v of %m checks</source>
            <translation>%v von %m Prüfungen</translation>
        </message>
        <message>
            <source>Keep running when the workbench closes</source>
            <translation>Weiterlaufen, wenn die Werkbank geschlossen wird</translation>
        </message>
        <message>
            <source>Detached: a supervisor on the machine that runs it (the first host over SSH) starts, watches and restarts the ranks and keeps the record; the workbench attaches to it and may close at any time</source>
            <translation>Abgekoppelt: Ein Supervisor auf dem ausführenden Rechner (über SSH der erste Host) startet, überwacht und startet die Ranks neu und führt das Protokoll; die Werkbank koppelt sich an und darf jederzeit geschlossen werden</translation>
        </message>
        <message>
            <source>Detach</source>
            <translation>Abkoppeln</translation>
        </message>
        <message>
            <source>Stop following the run here; it goes on, and can be attached to again from Runs</source>
            <translation>Den Lauf hier nicht mehr verfolgen; er läuft weiter und lässt sich unter Läufe wieder ankoppeln</translation>
        </message>
        <message>
            <source>Engine</source>
            <translation>Ausführung</translation>
        </message>
    </context>
    <context>
        <name>sb::gui::LiveRunView</name>
        <message>
            <source>validation loss %1</source>
            <translation>Validierungsverlust %1</translation>
        </message>
        <message>
            <source>Validation loss</source>
            <translation>Validierungsverlust</translation>
        </message>
        <message>
            <source>No run yet</source>
            <translation>Noch kein Lauf</translation>
        </message>
        <message>
            <source>Launch the open plan (Launch, on the left or at the top right); its loss, throughput, memory and logs appear here.</source>
            <translation>Starten Sie den geöffneten Plan (Starten, links oder oben rechts); Verlust, Durchsatz, Speicher und Logs erscheinen hier.</translation>
        </message>
        <message>
            <source>run %1</source>
            <translation>Lauf %1</translation>
        </message>
        <message>
            <source>run %1 (%2)</source>
            <translation>Lauf %1 (%2)</translation>
        </message>
        <message>
            <source>step %1 of %2</source>
            <translation>Schritt %1 von %2</translation>
        </message>
        <message>
            <source>step %1</source>
            <translation>Schritt %1</translation>
        </message>
        <message>
            <source>loss %1</source>
            <translation>Verlust %1</translation>
        </message>
        <message>
            <source>ETA %1</source>
            <translation>Restzeit %1</translation>
        </message>
        <message>
            <source>Smoothing</source>
            <translation>Glättung</translation>
        </message>
        <message>
            <source>Loss</source>
            <translation>Verlust</translation>
        </message>
        <message>
            <source>Step</source>
            <translation>Schritt</translation>
        </message>
        <message>
            <source>Throughput</source>
            <translation>Durchsatz</translation>
        </message>
        <message>
            <source>Tokens/s</source>
            <translation>Tokens/s</translation>
        </message>
        <message>
            <source>Step time (rank 0)</source>
            <translation>Schrittzeit (Rang 0)</translation>
        </message>
        <message>
            <source>ms</source>
            <translation>ms</translation>
        </message>
        <message>
            <source>Loss (raw)</source>
            <translation>Verlust (roh)</translation>
        </message>
        <message>
            <source>Loss (smoothed)</source>
            <translation>Verlust (geglättet)</translation>
        </message>
        <message>
            <source>Tokens/s (all ranks)</source>
            <translation>Tokens/s (alle Ränge)</translation>
        </message>
        <message>
            <source>Forward</source>
            <translation>Forward</translation>
        </message>
        <message>
            <source>Backward</source>
            <translation>Backward</translation>
        </message>
        <message>
            <source>Optimizer</source>
            <translation>Optimierer</translation>
        </message>
        <message>
            <source>Exposed communication</source>
            <translation>Nicht verdeckte Kommunikation</translation>
        </message>
        <message>
            <source>Step (measured)</source>
            <translation>Schritt (gemessen)</translation>
        </message>
        <message>
            <source>Exponential moving average of the loss and the throughput, as TensorBoard smooths: 0 is none</source>
            <translation>Exponentiell gleitender Mittelwert von Loss und Durchsatz, wie TensorBoard glättet: 0 ist keiner</translation>
        </message>
        <message>
            <source>Tokens/s (all ranks, raw)</source>
            <translation>Tokens/s (alle Ränge, roh)</translation>
        </message>
        <message>
            <source>Chart controls</source>
            <translation>Diagrammbedienung</translation>
        </message>
        <message>
            <source>Hover for values; drag a box or turn the wheel to zoom, Shift+drag to pan, double-click to show all; right-click for the log scale and exports</source>
            <translation>Zeigen für Werte; Rahmen ziehen oder Mausrad zum Zoomen, Umschalt+Ziehen zum Verschieben, Doppelklick zeigt alles; Rechtsklick für logarithmische Skala und Export</translation>
        </message>
        <message>
            <source>X axis</source>
            <translation>X-Achse</translation>
        </message>
        <message>
            <source>step</source>
            <translation>Schritt</translation>
        </message>
        <message>
            <source>time since the first step</source>
            <translation>Zeit seit dem ersten Schritt</translation>
        </message>
        <message>
            <source>Seconds</source>
            <translation>Sekunden</translation>
        </message>
        <message>
            <source>wall-clock time</source>
            <translation>Uhrzeit</translation>
        </message>
        <message>
            <source>Time</source>
            <translation>Uhrzeit</translation>
        </message>
        <message>
            <source>%1, %2 in</source>
            <translation>%1, nach %2</translation>
        </message>
    </context>
    <context>
        <name>sb::gui::LogPanes</name>
        <message>
            <source>Filter the log…</source>
            <translation>Log filtern…</translation>
        </message>
        <message>
            <source>All</source>
            <translation>Alle</translation>
        </message>
        <message>
            <source>Launcher</source>
            <translation>Launcher</translation>
        </message>
        <message>
            <source>Rank %1</source>
            <translation>Rang %1</translation>
        </message>
        <message>
            <source>Show the charts</source>
            <translation>Diagramme zeigen</translation>
        </message>
        <message>
            <source>Enlarge the log</source>
            <translation>Log vergrößern</translation>
        </message>
        <message>
            <source>Give the charts their room back</source>
            <translation>Den Diagrammen ihren Platz zurückgeben</translation>
        </message>
        <message>
            <source>The log takes the whole view; the charts give way until you press again</source>
            <translation>Das Log nimmt die ganze Ansicht ein; die Diagramme weichen, bis Sie erneut drücken</translation>
        </message>
    </context>
    <context>
        <name>sb::gui::MainActionsText</name>
        <message>
            <source>New plan from a &amp;Hugging Face model folder…</source>
            <translation>Neuer Plan aus einem &amp;Hugging-Face-Modellordner…</translation>
        </message>
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
            <source>&lt;p&gt;&lt;b&gt;shardbench&lt;/b&gt; %1&lt;/p&gt;&lt;p&gt;A workbench for FSDP2-style sharded training: design a sharding plan, see every rank&apos;s memory, and export the plan as a PyTorch FSDP2 script.&lt;/p&gt;</source>
            <translation>&lt;p&gt;&lt;b&gt;shardbench&lt;/b&gt; %1&lt;/p&gt;&lt;p&gt;Eine Werkbank für geshardetes Training im Stil von FSDP2: Sharding-Plan entwerfen, den Speicher jedes Rangs sehen und den Plan als PyTorch-FSDP2-Skript exportieren.&lt;/p&gt;</translation>
        </message>
        <message>
            <source>Plan</source>
            <translation>Plan</translation>
        </message>
        <message>
            <source>A run is in progress</source>
            <translation>Ein Lauf ist im Gange</translation>
        </message>
        <message>
            <source>Closing the workbench stops every rank of the running training. Stop it and quit?</source>
            <translation>Das Schließen der Werkbank stoppt jeden Rang des laufenden Trainings. Stoppen und beenden?</translation>
        </message>
    </context>
    <context>
        <name>sb::gui::MemoryView</name>
        <message>
            <source>Per rank</source>
            <translation>Pro Rang</translation>
        </message>
        <message>
            <source>Through one step</source>
            <translation>Über einen Schritt</translation>
        </message>
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
            <source>The source model's attention window (Mistral v0.1: 4096); the sequence length must not exceed it</source>
            <translation>Das Attention-Fenster des Ausgangsmodells (Mistral v0.1: 4096); die Sequenzlänge darf es nicht überschreiten</translation>
        </message>
        <message>
            <source>none</source>
            <translation>keines</translation>
        </message>
        <message>
            <source>The RMSNorms' epsilon (Hugging Face's rms_norm_eps; Llama 1e-5, Qwen 1e-6)</source>
            <translation>Das Epsilon der RMSNorms (rms_norm_eps bei Hugging Face; Llama 1e-5, Qwen 1e-6)</translation>
        </message>
        <message>
            <source>Each attention head's width where it is not the width divided by the heads (Qwen3: 128)</source>
            <translation>Die Breite jedes Attention-Kopfs, wo sie nicht die Breite geteilt durch die Köpfe ist (Qwen3: 128)</translation>
        </message>
        <message>
            <source>width / heads</source>
            <translation>Breite / Köpfe</translation>
        </message>
        <message>
            <source>Sliding window</source>
            <translation>Gleitendes Fenster</translation>
        </message>
        <message>
            <source>Norm epsilon</source>
            <translation>Norm-Epsilon</translation>
        </message>
        <message>
            <source>RoPE theta</source>
            <translation>RoPE-Theta</translation>
        </message>
        <message>
            <source>Head width</source>
            <translation>Kopfbreite</translation>
        </message>
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
            <source>The output projection shares the token embedding&apos;s weight</source>
            <translation>Die Ausgabeprojektion teilt sich das Gewicht des Token-Embeddings</translation>
        </message>
    </context>
    <context>
        <name>sb::gui::PlanDiffModel</name>
        <message>
            <source>Part</source>
            <translation>Teil</translation>
        </message>
        <message>
            <source>Item</source>
            <translation>Eintrag</translation>
        </message>
    </context>
    <context>
        <name>sb::gui::PlanDiffText</name>
        <message>
            <source>yes</source>
            <translation>ja</translation>
        </message>
        <message>
            <source>no</source>
            <translation>nein</translation>
        </message>
        <message>
            <source>the parameter&apos;s own</source>
            <translation>der des Parameters</translation>
        </message>
        <message>
            <source>none</source>
            <translation>keine</translation>
        </message>
        <message>
            <source>(root)</source>
            <translation>(Wurzel)</translation>
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
            <source>Shard units</source>
            <translation>Shard-Einheiten</translation>
        </message>
        <message>
            <source>Policy</source>
            <translation>Richtlinie</translation>
        </message>
        <message>
            <source>preset</source>
            <translation>Vorlage</translation>
        </message>
        <message>
            <source>architecture</source>
            <translation>Architektur</translation>
        </message>
        <message>
            <source>vocabulary</source>
            <translation>Vokabular</translation>
        </message>
        <message>
            <source>width</source>
            <translation>Breite</translation>
        </message>
        <message>
            <source>layers</source>
            <translation>Schichten</translation>
        </message>
        <message>
            <source>heads</source>
            <translation>Köpfe</translation>
        </message>
        <message>
            <source>key/value heads</source>
            <translation>Key/Value-Köpfe</translation>
        </message>
        <message>
            <source>MLP width</source>
            <translation>MLP-Breite</translation>
        </message>
        <message>
            <source>longest sequence</source>
            <translation>längste Sequenz</translation>
        </message>
        <message>
            <source>parameter dtype</source>
            <translation>Parameter-Datentyp</translation>
        </message>
        <message>
            <source>nodes</source>
            <translation>Knoten</translation>
        </message>
        <message>
            <source>processes per node</source>
            <translation>Prozesse je Knoten</translation>
        </message>
        <message>
            <source>replicas (HSDP)</source>
            <translation>Replikate (HSDP)</translation>
        </message>
        <message>
            <source>device</source>
            <translation>Gerät</translation>
        </message>
        <message>
            <source>memory per rank</source>
            <translation>Speicher je Rang</translation>
        </message>
        <message>
            <source>micro-batch</source>
            <translation>Micro-Batch</translation>
        </message>
        <message>
            <source>sequence length</source>
            <translation>Sequenzlänge</translation>
        </message>
        <message>
            <source>accumulation steps</source>
            <translation>Akkumulationsschritte</translation>
        </message>
        <message>
            <source>steps</source>
            <translation>Schritte</translation>
        </message>
        <message>
            <source>seed</source>
            <translation>Seed</translation>
        </message>
        <message>
            <source>gradient clipping</source>
            <translation>Gradient-Clipping</translation>
        </message>
        <message>
            <source>learning rate</source>
            <translation>Lernrate</translation>
        </message>
        <message>
            <source>schedule</source>
            <translation>Zeitplan</translation>
        </message>
        <message>
            <source>warm-up steps</source>
            <translation>Aufwärmschritte</translation>
        </message>
        <message>
            <source>weight decay</source>
            <translation>Weight Decay</translation>
        </message>
        <message>
            <source>data</source>
            <translation>Daten</translation>
        </message>
        <message>
            <source>synthetic</source>
            <translation>synthetisch</translation>
        </message>
        <message>
            <source>tokens: %1</source>
            <translation>Tokens: %1</translation>
        </message>
        <message>
            <source>text: %1</source>
            <translation>Text: %1</translation>
        </message>
        <message>
            <source>checkpoint folder</source>
            <translation>Checkpoint-Ordner</translation>
        </message>
        <message>
            <source>checkpoint every</source>
            <translation>Checkpoint alle</translation>
        </message>
        <message>
            <source>unit</source>
            <translation>Einheit</translation>
        </message>
        <message>
            <source>not a unit</source>
            <translation>keine Einheit</translation>
        </message>
        <message>
            <source>reshard after forward</source>
            <translation>Reshard nach Forward</translation>
        </message>
        <message>
            <source>param dtype</source>
            <translation>Param.-Typ</translation>
        </message>
        <message>
            <source>reduce dtype</source>
            <translation>Reduktionstyp</translation>
        </message>
        <message>
            <source>output dtype</source>
            <translation>Ausgabetyp</translation>
        </message>
        <message>
            <source>cast forward inputs</source>
            <translation>Forward-Eingaben umwandeln</translation>
        </message>
        <message>
            <source>CPU offload</source>
            <translation>CPU-Auslagerung</translation>
        </message>
        <message>
            <source>activation checkpointing</source>
            <translation>Aktivierungs-Checkpointing</translation>
        </message>
        <message>
            <source>forward prefetch</source>
            <translation>Forward-Prefetch</translation>
        </message>
        <message>
            <source>backward prefetch</source>
            <translation>Backward-Prefetch</translation>
        </message>
        <message>
            <source>ignored parameters</source>
            <translation>ignorierte Parameter</translation>
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
            <source>Not set: the parameters&apos; own dtype</source>
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
            <source>MixedPrecisionPolicy.output_dtype: the dtype the unit&apos;s outputs are cast to</source>
            <translation>MixedPrecisionPolicy.output_dtype: der Datentyp, in den die Ausgaben der Einheit umgewandelt werden</translation>
        </message>
        <message>
            <source>CPUOffloadPolicy: sharded parameters, gradients and optimizer state on the host</source>
            <translation>CPUOffloadPolicy: geshardete Parameter, Gradienten und Optimiererzustand auf dem Host</translation>
        </message>
        <message>
            <source>Activation checkpointing: keep only the unit&apos;s input and recompute in backward</source>
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
        <name>sb::gui::Preflight</name>
        <message>
            <source>Rank %1 needs %2 but the device has %3: launched anyway, as confirmed</source>
            <translation>Rang %1 braucht %2, das Gerät hat aber %3: trotzdem gestartet, wie bestätigt</translation>
        </message>
        <message>
            <source>The run cannot run on this machine</source>
            <translation>Der Lauf kann auf diesem Rechner nicht laufen</translation>
        </message>
        <message>
            <source>The plan is valid</source>
            <translation>Der Plan ist gültig</translation>
        </message>
        <message>
            <source>The estimated memory fits the device</source>
            <translation>Der geschätzte Speicher passt auf das Gerät</translation>
        </message>
        <message>
            <source>The ranks fit the chosen machines</source>
            <translation>Die Ränge passen auf die gewählten Rechner</translation>
        </message>
        <message>
            <source>The hosts are reachable</source>
            <translation>Die Hosts sind erreichbar</translation>
        </message>
        <message>
            <source>shardbench-core is present</source>
            <translation>shardbench-core ist vorhanden</translation>
        </message>
        <message>
            <source>Checking this machine…</source>
            <translation>Dieser Rechner wird geprüft…</translation>
        </message>
        <message>
            <source>Connecting…</source>
            <translation>Verbindung wird aufgebaut…</translation>
        </message>
        <message>
            <source>Starting shardbench-core for a test…</source>
            <translation>shardbench-core wird zum Test gestartet…</translation>
        </message>
        <message>
            <source>No problems</source>
            <translation>Keine Probleme</translation>
        </message>
        <message numerus="yes">
            <source>No errors, %n warning(s)</source>
            <translation>
                <numerusform>Keine Fehler, %n Warnung</numerusform>
                <numerusform>Keine Fehler, %n Warnungen</numerusform>
            </translation>
        </message>
        <message numerus="yes">
            <source>%n error(s) in the plan</source>
            <translation>
                <numerusform>%n Fehler im Plan</numerusform>
                <numerusform>%n Fehler im Plan</numerusform>
            </translation>
        </message>
        <message>
            <source>Not estimated: the plan has errors</source>
            <translation>Nicht abgeschätzt: Der Plan enthält Fehler</translation>
        </message>
        <message>
            <source>Not checked: the plan has errors</source>
            <translation>Nicht geprüft: Der Plan enthält Fehler</translation>
        </message>
        <message>
            <source>Peak %1 of %2 per rank</source>
            <translation>Spitze %1 von %2 je Rang</translation>
        </message>
        <message>
            <source>Rank %1 needs %2 but the device has %3: over by %4</source>
            <translation>Rang %1 braucht %2, das Gerät hat aber %3: %4 zu viel</translation>
        </message>
        <message>
            <source>Cannot write the plan for the ranks</source>
            <translation>Der Plan für die Ränge kann nicht geschrieben werden</translation>
        </message>
        <message>
            <source>The run cannot be laid out</source>
            <translation>Der Lauf kann nicht verteilt werden</translation>
        </message>
        <message numerus="yes">
            <source>%1: %n rank(s)</source>
            <translation>
                <numerusform>%1: %n Rang</numerusform>
                <numerusform>%1: %n Ränge</numerusform>
            </translation>
        </message>
        <message numerus="yes">
            <source>%n rank(s) through srun (Slurm)</source>
            <translation>
                <numerusform>%n Rang über srun (Slurm)</numerusform>
                <numerusform>%n Ränge über srun (Slurm)</numerusform>
            </translation>
        </message>
        <message numerus="yes">
            <source>%n rank(s) on this machine</source>
            <translation>
                <numerusform>%n Rang auf diesem Rechner</numerusform>
                <numerusform>%n Ränge auf diesem Rechner</numerusform>
            </translation>
        </message>
        <message numerus="yes">
            <source>%n rank(s) on %1</source>
            <translation>
                <numerusform>%n Rang auf %1</numerusform>
                <numerusform>%n Ränge auf %1</numerusform>
            </translation>
        </message>
        <message>
            <source>This machine</source>
            <translation>Dieser Rechner</translation>
        </message>
        <message numerus="yes">
            <source>%n host(s) reachable and logged in</source>
            <translation>
                <numerusform>%n Host erreichbar und angemeldet</numerusform>
                <numerusform>%n Hosts erreichbar und angemeldet</numerusform>
            </translation>
        </message>
        <message numerus="yes">
            <source>%n host(s) failed</source>
            <translation>
                <numerusform>%n Host fehlgeschlagen</numerusform>
                <numerusform>%n Hosts fehlgeschlagen</numerusform>
            </translation>
        </message>
        <message numerus="yes">
            <source>Missing or not working on %n host(s)</source>
            <translation>
                <numerusform>Fehlt oder funktioniert nicht auf %n Host</numerusform>
                <numerusform>Fehlt oder funktioniert nicht auf %n Hosts</numerusform>
            </translation>
        </message>
        <message>
            <source>Not checked on hosts that could not be reached</source>
            <translation>Auf nicht erreichbaren Hosts nicht geprüft</translation>
        </message>
        <message>
            <source>%1 on the nodes&apos; PATH (not checked here)</source>
            <translation>%1 im PATH der Knoten (hier nicht geprüft)</translation>
        </message>
        <message numerus="yes">
            <source>Present on %n host(s)</source>
            <translation>
                <numerusform>Vorhanden auf %n Host</numerusform>
                <numerusform>Vorhanden auf %n Hosts</numerusform>
            </translation>
        </message>
        <message>
            <source>%1 (LibTorch %2, %3) at %4</source>
            <translation>%1 (LibTorch %2, %3) unter %4</translation>
        </message>
        <message>
            <source>%1: %2 (LibTorch %3, %4) at %5</source>
            <translation>%1: %2 (LibTorch %3, %4) unter %5</translation>
        </message>
        <message>
            <source>Python %1 with PyTorch %2 at %3</source>
            <translation>Python %1 mit PyTorch %2 unter %3</translation>
        </message>
        <message>
            <source>%1: Python %2 with PyTorch %3 at %4</source>
            <translation>%1: Python %2 mit PyTorch %3 unter %4</translation>
        </message>
        <message>
            <source>Python and PyTorch are present</source>
            <translation>Python und PyTorch sind vorhanden</translation>
        </message>
        <message>
            <source>Testing Python and PyTorch…</source>
            <translation>Python und PyTorch werden getestet…</translation>
        </message>
    </context>
    <context>
        <name>sb::gui::PreflightModel</name>
        <message>
            <source>Check</source>
            <translation>Prüfung</translation>
        </message>
        <message>
            <source>Result</source>
            <translation>Ergebnis</translation>
        </message>
    </context>
    <context>
        <name>sb::gui::ProblemText</name>
        <message>
            <source>synthetic data has its own held-out stream: &quot;path&quot; and &quot;holdout&quot; need tokens or text data</source>
            <translation>synthetische Daten haben einen eigenen zurückgehaltenen Strom: „path“ und „holdout“ brauchen Token- oder Textdaten</translation>
        </message>
        <message>
            <source>a validation loss on tokens or text data needs a held-out &quot;path&quot; or a &quot;holdout&quot; fraction, not both</source>
            <translation>ein Validierungsverlust auf Token- oder Textdaten braucht einen zurückgehaltenen „path“ oder einen „holdout“-Anteil, nicht beides</translation>
        </message>
        <message>
            <source>holdout must lie in (0, 0.5], got %1</source>
            <translation>holdout muss in (0, 0.5] liegen, erhalten: %1</translation>
        </message>
        <message>
            <source>eval every must not be negative</source>
            <translation>eval every darf nicht negativ sein</translation>
        </message>
        <message>
            <source>eval batches must lie in [0, 100000]</source>
            <translation>eval batches muss in [0, 100000] liegen</translation>
        </message>
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
            <source>seq_len %1 exceeds the model&apos;s position table (max_seq_len %2)</source>
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
            <source>schedule must be &quot;constant&quot; or &quot;cosine&quot;, got &quot;%1&quot;</source>
            <translation>schedule muss „constant“ oder „cosine“ sein, erhalten: „%1“</translation>
        </message>
        <message>
            <source>no_decay entries are &quot;1d&quot; and &quot;embeddings&quot;, got &quot;%1&quot;</source>
            <translation>Einträge von no_decay sind „1d“ und „embeddings“, erhalten: „%1“</translation>
        </message>
        <message>
            <source>min_lr_ratio must lie in [0, 1]</source>
            <translation>min_lr_ratio muss in [0, 1] liegen</translation>
        </message>
        <message>
            <source>a tokens or text data source needs a &quot;path&quot;</source>
            <translation>eine Token- oder Textdatenquelle braucht einen „path“</translation>
        </message>
        <message>
            <source>a checkpoint interval needs a checkpoint &quot;dir&quot;</source>
            <translation>ein Checkpoint-Intervall braucht ein Checkpoint-„dir“</translation>
        </message>
        <message>
            <source>unsupported plan version %1</source>
            <translation>nicht unterstützte Planversion %1</translation>
        </message>
        <message>
            <source>missing integer &quot;version&quot;</source>
            <translation>ganzzahlige „version“ fehlt</translation>
        </message>
        <message>
            <source>plan format version %1 is not supported (this build reads version %2)</source>
            <translation>Planformat-Version %1 wird nicht unterstützt (diese Version liest Version %2)</translation>
        </message>
        <message>
            <source>not a shardbench plan: &quot;format&quot; must be &quot;shardbench-plan&quot;</source>
            <translation>kein shardbench-Plan: „format“ muss „shardbench-plan“ sein</translation>
        </message>
        <message>
            <source>invalid JSON at %1</source>
            <translation>ungültiges JSON bei %1</translation>
        </message>
        <message>
            <source>unknown field &quot;%1&quot; is ignored</source>
            <translation>unbekanntes Feld „%1“ wird ignoriert</translation>
        </message>
        <message>
            <source>the model has no parameters</source>
            <translation>das Modell hat keine Parameter</translation>
        </message>
        <message>
            <source>parameter &quot;%1&quot; is a scalar; fully_shard cannot shard 0-dim parameters (make it 1-D or list it in ignored_params)</source>
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
            <source>unit &quot;%1&quot; owns no parameters (its children are all units)</source>
            <translation>Einheit „%1“ besitzt keine Parameter (alle ihre Kinder sind Einheiten)</translation>
        </message>
        <message>
            <source>unknown module &quot;%1&quot;: the model has no module of that name</source>
            <translation>unbekanntes Modul „%1“: Das Modell hat kein Modul dieses Namens</translation>
        </message>
        <message>
            <source>unknown parameter &quot;%1&quot;</source>
            <translation>unbekannter Parameter „%1“</translation>
        </message>
        <message>
            <source>parameter &quot;%1&quot; is tied to &quot;%2&quot; but they fall into different units (%3 and %4); make both modules part of one unit</source>
            <translation>Parameter „%1“ ist an „%2“ gekoppelt, aber sie liegen in verschiedenen Einheiten (%3 und %4); legen Sie beide Module in eine Einheit</translation>
        </message>
        <message>
            <source>prefetch target &quot;%1&quot; is not a shard unit</source>
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
            <source>grouped-query attention (n_kv_heads != n_heads) needs a Llama-form architecture (llama, mistral, qwen2, qwen3)</source>
            <translation>Grouped-Query-Attention (n_kv_heads != n_heads) erfordert eine Architektur in Llama-Form (llama, mistral, qwen2, qwen3)</translation>
        </message>
        <message>
            <source>RoPE needs an even head dimension, got %1</source>
            <translation>RoPE braucht eine gerade Kopfdimension, erhalten: %1</translation>
        </message>
        <message>
            <source>RoPE scaling of type &quot;%1&quot; is not computed by the training core (it computes &quot;llama3&quot;)</source>
            <translation>RoPE-Skalierung vom Typ &quot;%1&quot; berechnet der Trainingskern nicht (er berechnet &quot;llama3&quot;)</translation>
        </message>
        <message>
            <source>%1 must be %2, got %3</source>
            <translation>%1 muss %2 sein, erhalten: %3</translation>
        </message>
        <message>
            <source>RoPE scaling needs a Llama-form architecture (llama, mistral, qwen2, qwen3)</source>
            <translation>RoPE-Skalierung erfordert eine Architektur in Llama-Form (llama, mistral, qwen2, qwen3)</translation>
        </message>
        <message>
            <source>%1 needs a Llama-form architecture (llama, mistral, qwen2, qwen3)</source>
            <translation>%1 erfordert eine Architektur in Llama-Form (llama, mistral, qwen2, qwen3)</translation>
        </message>
        <message>
            <source>the sequence length %1 exceeds the model&apos;s sliding window of %2 tokens; the training core computes full causal attention, not a sliding window</source>
            <translation>die Sequenzlänge %1 übersteigt das gleitende Fenster des Modells von %2 Token; der Trainingskern berechnet volle kausale Attention, kein gleitendes Fenster</translation>
        </message>
        <message>
            <source>not a shardbench module tree (format must be &quot;shardbench-module-tree&quot;)</source>
            <translation>kein shardbench-Modulbaum („format“ muss „shardbench-module-tree“ sein)</translation>
        </message>
        <message>
            <source>unsupported module-tree version (this build reads version 1)</source>
            <translation>nicht unterstützte Modulbaum-Version (diese Version liest Version 1)</translation>
        </message>
        <message>
            <source>&quot;modules&quot; must be a non-empty array, root first</source>
            <translation>„modules“ muss ein nicht leeres Array sein, die Wurzel zuerst</translation>
        </message>
        <message>
            <source>module &quot;%1&quot; is empty or listed twice</source>
            <translation>Modul „%1“ ist leer oder doppelt aufgeführt</translation>
        </message>
        <message>
            <source>module &quot;%1&quot; appears before its parent &quot;%2&quot;</source>
            <translation>Modul „%1“ steht vor seinem Elternmodul „%2“</translation>
        </message>
        <message>
            <source>&quot;shape&quot; must be an array of non-negative integers</source>
            <translation>„shape“ muss ein Array nicht negativer ganzer Zahlen sein</translation>
        </message>
        <message>
            <source>tied_to names unknown parameter &quot;%1&quot;</source>
            <translation>tied_to nennt den unbekannten Parameter „%1“</translation>
        </message>
        <message>
            <source>the model is too large to estimate: its parameter state could reach %1 bytes per rank, above the 2^62 bytes (4 EiB) shardbench models</source>
            <translation>das Modell ist zu groß zum Schätzen: sein Parameterzustand könnte %1 Bytes pro Rang erreichen, mehr als die 2^62 Bytes (4 EiB), die shardbench modelliert</translation>
        </message>
        <message>
            <source>micro_batch x seq_len is too large to estimate: activations could reach %1 bytes per rank, above the 2^62 bytes (4 EiB) shardbench models</source>
            <translation>micro_batch x seq_len ist zu groß zum Schätzen: die Aktivierungen könnten %1 Bytes pro Rang erreichen, mehr als die 2^62 Bytes (4 EiB), die shardbench modelliert</translation>
        </message>
        <message>
            <source>%1 is listed as a unit more than once</source>
            <translation>%1 ist mehr als einmal als Einheit aufgeführt</translation>
        </message>
        <message>
            <source>parameter &quot;%1&quot; is not inside unit %2, so it cannot ignore it</source>
            <translation>Parameter „%1“ liegt nicht in der Einheit %2, daher kann sie ihn nicht ignorieren</translation>
        </message>
        <message>
            <source>unit %1 holds parameter &quot;%2&quot;, which unit %3 excludes with ignored_params</source>
            <translation>Einheit %1 enthält den Parameter „%2“, den die Einheit %3 mit ignored_params ausschließt</translation>
        </message>
        <message>
            <source>must be a JSON object</source>
            <translation>muss ein JSON-Objekt sein</translation>
        </message>
        <message>
            <source>each unit must be a JSON object</source>
            <translation>jede Einheit muss ein JSON-Objekt sein</translation>
        </message>
        <message>
            <source>%1 more unknown fields are ignored</source>
            <translation>%1 weitere unbekannte Felder werden ignoriert</translation>
        </message>
        <message>
            <source>%1 must be an integer from %2 to %3, got %4</source>
            <translation>%1 muss eine ganze Zahl von %2 bis %3 sein, erhalten: %4</translation>
        </message>
        <message>
            <source>%1 must be a number, got %2</source>
            <translation>%1 muss eine Zahl sein, erhalten: %2</translation>
        </message>
        <message>
            <source>%1 must be true or false, got %2</source>
            <translation>%1 muss true oder false sein, erhalten: %2</translation>
        </message>
        <message>
            <source>%1 must be a string, got %2</source>
            <translation>%1 muss eine Zeichenkette sein, erhalten: %2</translation>
        </message>
        <message>
            <source>%1 must be an array of strings</source>
            <translation>%1 muss ein Array von Zeichenketten sein</translation>
        </message>
        <message>
            <source>unknown dtype %1 (expected fp32, bf16, fp16, fp64 or null)</source>
            <translation>unbekannter dtype %1 (erwartet: fp32, bf16, fp16, fp64 oder null)</translation>
        </message>
        <message>
            <source>unknown model preset &quot;%1&quot; (known: %2)</source>
            <translation>unbekannte Modellvorlage „%1“ (bekannt: %2)</translation>
        </message>
        <message>
            <source>unknown architecture &quot;%1&quot; (tutorial, gpt2, llama, imported)</source>
            <translation>unbekannte Architektur „%1“ (tutorial, gpt2, llama, imported)</translation>
        </message>
        <message>
            <source>an imported model needs its &quot;module_tree&quot;</source>
            <translation>ein importiertes Modell braucht seinen „module_tree“</translation>
        </message>
        <message>
            <source>device must be &quot;cpu&quot; or &quot;cuda&quot;, got &quot;%1&quot;</source>
            <translation>device muss „cpu“ oder „cuda“ sein, erhalten: „%1“</translation>
        </message>
        <message>
            <source>%1 must be between 0 and 1e7 GiB</source>
            <translation>%1 muss zwischen 0 und 1e7 GiB liegen</translation>
        </message>
        <message>
            <source>world_size %1 does not match the mesh: %2 nodes x %3 processes = %4</source>
            <translation>world_size %1 passt nicht zum Mesh: %2 Knoten x %3 Prozesse = %4</translation>
        </message>
        <message>
            <source>each unit needs a string &quot;module&quot; (&quot;&quot; is the root)</source>
            <translation>jede Einheit braucht eine Zeichenkette „module“ (&quot;&quot; ist die Wurzel)</translation>
        </message>
        <message>
            <source>reshard_after_forward must be &quot;default&quot;, true, false or a positive integer, got %1</source>
            <translation>reshard_after_forward muss „default“, true, false oder eine positive ganze Zahl sein, erhalten: %1</translation>
        </message>
        <message>
            <source>activation_checkpointing must be &quot;none&quot; or &quot;full&quot;, got %1</source>
            <translation>activation_checkpointing muss „none“ oder „full“ sein, erhalten: %1</translation>
        </message>
        <message>
            <source>only the &quot;adamw&quot; optimizer is supported, got &quot;%1&quot;</source>
            <translation>nur der Optimierer „adamw“ wird unterstützt, erhalten: „%1“</translation>
        </message>
        <message>
            <source>betas must be an array of two numbers</source>
            <translation>betas muss ein Array aus zwei Zahlen sein</translation>
        </message>
        <message>
            <source>data kind must be synthetic, tokens or text, got &quot;%1&quot;</source>
            <translation>die Datenart muss synthetic, tokens oder text sein, erhalten: „%1“</translation>
        </message>
        <message>
            <source>token dtype must be auto, uint16 or uint32, got &quot;%1&quot;</source>
            <translation>der Token-Typ muss auto, uint16 oder uint32 sein, erhalten: „%1“</translation>
        </message>
        <message>
            <source>a plan must be a JSON object</source>
            <translation>ein Plan muss ein JSON-Objekt sein</translation>
        </message>
        <message>
            <source>&quot;units&quot; must be an array</source>
            <translation>„units“ muss ein Array sein</translation>
        </message>
        <message>
            <source>cannot read %1: %2</source>
            <translation>%1 kann nicht gelesen werden: %2</translation>
        </message>
        <message>
            <source>%1 is larger than 64 MiB; not a plan</source>
            <translation>%1 ist größer als 64 MiB; kein Plan</translation>
        </message>
        <message>
            <source>%1 contains a control character (%2): names and paths are one line of printable text</source>
            <translation>%1 enthält ein Steuerzeichen (%2): Namen und Pfade sind eine Zeile druckbarer Text</translation>
        </message>
        <message>
            <source>the module tree must be a JSON object</source>
            <translation>der Modulbaum muss ein JSON-Objekt sein</translation>
        </message>
        <message>
            <source>each module needs a string &quot;name&quot;</source>
            <translation>jedes Modul braucht eine Zeichenkette „name“</translation>
        </message>
        <message>
            <source>the first module must be the root, named &quot;&quot;</source>
            <translation>das erste Modul muss die Wurzel sein, mit dem Namen &quot;&quot;</translation>
        </message>
        <message>
            <source>&quot;params&quot; must be an array</source>
            <translation>„params“ muss ein Array sein</translation>
        </message>
        <message>
            <source>each parameter needs a non-empty string &quot;name&quot;</source>
            <translation>jeder Parameter braucht eine nicht leere Zeichenkette „name“</translation>
        </message>
        <message>
            <source>parameter has more than 2^40 elements</source>
            <translation>der Parameter hat mehr als 2^40 Elemente</translation>
        </message>
        <message>
            <source>unknown dtype %1 (expected float32, bfloat16, float16 or float64)</source>
            <translation>unbekannter dtype %1 (erwartet: float32, bfloat16, float16 oder float64)</translation>
        </message>
        <message>
            <source>tied parameter shapes differ from &quot;%1&quot;</source>
            <translation>die Form des gekoppelten Parameters weicht von „%1“ ab</translation>
        </message>
        <message>
            <source>&quot;%1&quot;</source>
            <translation>„%1“</translation>
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
        <message>
            <source>does not fit: rank %1 needs %2 at its peak, %3 more than the %4 of a %5</source>
            <translation>passt nicht: Rang %1 braucht in der Spitze %2, %3 mehr als die %4 eines %5</translation>
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
        <name>sb::gui::RankMemoryChart</name>
        <message>
            <source>GiB</source>
            <translation>GiB</translation>
        </message>
        <message>
            <source>MiB</source>
            <translation>MiB</translation>
        </message>
        <message>
            <source>Memory per rank</source>
            <translation>Speicher je Rang</translation>
        </message>
        <message>
            <source>Memory per rank: peak %1 measured, %2 estimated (%3%4 %)</source>
            <translation>Speicher je Rang: Spitze %1 gemessen, %2 geschätzt (%3%4 %)</translation>
        </message>
        <message>
            <source>Peak %1 measured, %2 estimated (%3%4 %)</source>
            <translation>Spitze %1 gemessen, %2 geschätzt (%3%4 %)</translation>
        </message>
        <message>
            <source> (first %1 ranks)</source>
            <translation> (die ersten %1 Ränge)</translation>
        </message>
        <message>
            <source>Current</source>
            <translation>Aktuell</translation>
        </message>
        <message>
            <source>Peak (measured)</source>
            <translation>Spitze (gemessen)</translation>
        </message>
        <message>
            <source>Peak (estimated for this plan)</source>
            <translation>Spitze (für diesen Plan geschätzt)</translation>
        </message>
        <message>
            <source>Rank</source>
            <translation>Rang</translation>
        </message>
    </context>
    <context>
        <name>sb::gui::MemorySystemTabs</name>
        <message>
            <source>Memory</source>
            <translation>Speicher</translation>
        </message>
        <message>
            <source>System</source>
            <translation>System</translation>
        </message>
        <message>
            <source>Each rank&apos;s CPU utilisation and host memory, and on CUDA its GPU&apos;s utilisation, power, temperature and SM clock</source>
            <translation>CPU-Auslastung und Hostspeicher jedes Rangs, unter CUDA auch Auslastung, Leistungsaufnahme, Temperatur und SM-Takt seiner GPU</translation>
        </message>
    </context>
    <context>
        <name>sb::gui::SystemChart</name>
        <message>
            <source>Show</source>
            <translation>Anzeigen</translation>
        </message>
        <message>
            <source>CPU utilisation</source>
            <translation>CPU-Auslastung</translation>
        </message>
        <message>
            <source>Host memory (RSS)</source>
            <translation>Hostspeicher (RSS)</translation>
        </message>
        <message>
            <source>GPU utilisation</source>
            <translation>GPU-Auslastung</translation>
        </message>
        <message>
            <source>GPU power</source>
            <translation>GPU-Leistungsaufnahme</translation>
        </message>
        <message>
            <source>GPU temperature</source>
            <translation>GPU-Temperatur</translation>
        </message>
        <message>
            <source>GPU SM clock</source>
            <translation>GPU-SM-Takt</translation>
        </message>
        <message>
            <source>% of one core</source>
            <translation>% eines Kerns</translation>
        </message>
        <message>
            <source>GiB</source>
            <translation>GiB</translation>
        </message>
        <message>
            <source>MiB</source>
            <translation>MiB</translation>
        </message>
        <message>
            <source>%</source>
            <translation>%</translation>
        </message>
        <message>
            <source>W</source>
            <translation>W</translation>
        </message>
        <message>
            <source>°C</source>
            <translation>°C</translation>
        </message>
        <message>
            <source>MHz</source>
            <translation>MHz</translation>
        </message>
        <message>
            <source>System: %1 per rank</source>
            <translation>System: %1 je Rang</translation>
        </message>
        <message>
            <source>System: no samples (the ranks send them every few seconds; SB_SYSTEM_SAMPLE_S sets how often)</source>
            <translation>System: keine Messwerte (die Ränge senden sie alle paar Sekunden; SB_SYSTEM_SAMPLE_S legt fest, wie oft)</translation>
        </message>
        <message>
            <source>Time</source>
            <translation>Uhrzeit</translation>
        </message>
        <message>
            <source>rank %1</source>
            <translation>Rang %1</translation>
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
        <name>sb::gui::RestoreDialog</name>
        <message>
            <source>Restore</source>
            <translation>Wiederherstellen</translation>
        </message>
        <message>
            <source>Restore a checkpoint as a new run</source>
            <translation>Checkpoint als neuen Lauf wiederherstellen</translation>
        </message>
        <message>
            <source>no checkpoints</source>
            <translation>keine Checkpoints</translation>
        </message>
        <message>
            <source>%1, resumed at step %2</source>
            <translation>%1, fortgesetzt bei Schritt %2</translation>
        </message>
        <message numerus="yes">
            <source>Checkpoint of %1 at step %2, saved by %n rank(s). Loading it reshards the parameters and optimizer state to the world size you choose.</source>
            <translation>
                <numerusform>Checkpoint von %1 bei Schritt %2, gespeichert von %n Rang. Beim Laden werden Parameter und Optimiererzustand auf die gewählte Weltgröße umverteilt.</numerusform>
                <numerusform>Checkpoint von %1 bei Schritt %2, gespeichert von %n Rängen. Beim Laden werden Parameter und Optimiererzustand auf die gewählte Weltgröße umverteilt.</numerusform>
            </translation>
        </message>
        <message>
            <source>World size</source>
            <translation>Weltgröße</translation>
        </message>
        <message>
            <source>Run on</source>
            <translation>Ausführen auf</translation>
        </message>
        <message>
            <source>Mesh</source>
            <translation>Gitter</translation>
        </message>
        <message>
            <source>Train until step</source>
            <translation>Trainieren bis Schritt</translation>
        </message>
        <message>
            <source>Save checkpoints in</source>
            <translation>Checkpoints speichern in</translation>
        </message>
        <message>
            <source>Name</source>
            <translation>Name</translation>
        </message>
        <message>
            <source>The checkpoint cannot be read: %1</source>
            <translation>Der Checkpoint kann nicht gelesen werden: %1</translation>
        </message>
        <message>
            <source>Choose at least one host.</source>
            <translation>Wählen Sie mindestens einen Host.</translation>
        </message>
        <message numerus="yes">
            <source>%1 ranks cannot be spread evenly over %n host(s).</source>
            <translation>
                <numerusform>%1 Ränge lassen sich nicht gleichmäßig auf %n Host verteilen.</numerusform>
                <numerusform>%1 Ränge lassen sich nicht gleichmäßig auf %n Hosts verteilen.</numerusform>
            </translation>
        </message>
        <message numerus="yes">
            <source>%n node(s)</source>
            <translation>
                <numerusform>%n Knoten</numerusform>
                <numerusform>%n Knoten</numerusform>
            </translation>
        </message>
        <message numerus="yes">
            <source>%n process(es) per node</source>
            <translation>
                <numerusform>%n Prozess je Knoten</numerusform>
                <numerusform>%n Prozesse je Knoten</numerusform>
            </translation>
        </message>
        <message numerus="yes">
            <source>%n replica(s) (HSDP)</source>
            <translation>
                <numerusform>%n Replikat (HSDP)</numerusform>
                <numerusform>%n Replikate (HSDP)</numerusform>
            </translation>
        </message>
        <message>
            <source>The plan&apos;s exported FSDP2 script loads it with torch.distributed.checkpoint.</source>
            <translation>Das exportierte FSDP2-Skript des Plans lädt ihn mit torch.distributed.checkpoint.</translation>
        </message>
        <message>
            <source>%1 loads it, given its folder in SHARDBENCH_RESUME_FROM.</source>
            <translation>%1 lädt ihn; sein Ordner steht in SHARDBENCH_RESUME_FROM.</translation>
        </message>
    </context>
    <context>
        <name>sb::gui::RunAreas</name>
        <message>
            <source>Launch despite the memory estimate?</source>
            <translation>Trotz der Speicherschätzung starten?</translation>
        </message>
        <message>
            <source>%1

The ranks would probably run out of memory. Launch anyway?</source>
            <translation>%1

Den Rängen würde wahrscheinlich der Speicher ausgehen. Trotzdem starten?</translation>
        </message>
        <message>
            <source>Launch anyway</source>
            <translation>Trotzdem starten</translation>
        </message>
        <message>
            <source>Do not launch</source>
            <translation>Nicht starten</translation>
        </message>
        <message>
            <source>Every check passed.</source>
            <translation>Alle Prüfungen bestanden.</translation>
        </message>
        <message>
            <source>Run %1 %2.</source>
            <translation>Lauf %1: %2.</translation>
        </message>
        <message>
            <source>Run %1 finished: %2</source>
            <translation>Lauf %1 beendet: %2</translation>
        </message>
        <message>
            <source>Run %1 started: %2</source>
            <translation>Lauf %1 gestartet: %2</translation>
        </message>
        <message>
            <source>Restoring run %1 from %2</source>
            <translation>Lauf %1 wird aus %2 wiederhergestellt</translation>
        </message>
        <message>
            <source>Run %1 was not restored from %2.</source>
            <translation>Lauf %1 wurde nicht aus %2 wiederhergestellt.</translation>
        </message>
        <message>
            <source>PNG image (*.png)</source>
            <translation>PNG-Bild (*.png)</translation>
        </message>
        <message>
            <source>SVG drawing (*.svg)</source>
            <translation>SVG-Zeichnung (*.svg)</translation>
        </message>
        <message>
            <source>CSV table (*.csv)</source>
            <translation>CSV-Tabelle (*.csv)</translation>
        </message>
        <message>
            <source>Export the chart</source>
            <translation>Diagramm exportieren</translation>
        </message>
        <message>
            <source>Export</source>
            <translation>Export</translation>
        </message>
        <message>
            <source>Wrote %1</source>
            <translation>%1 geschrieben</translation>
        </message>
        <message>
            <source>Cluster</source>
            <translation>Cluster</translation>
        </message>
        <message>
            <source>Run</source>
            <translation>Lauf</translation>
        </message>
        <message>
            <source>Runs</source>
            <translation>Läufe</translation>
        </message>
        <message>
            <source>Checkpoints</source>
            <translation>Checkpoints</translation>
        </message>
        <message>
            <source>attaching to %1</source>
            <translation>Ankoppeln an %1</translation>
        </message>
        <message>
            <source>attached: %1</source>
            <translation>angekoppelt: %1</translation>
        </message>
        <message>
            <source>Run %1 was not stopped: %2</source>
            <translation>Lauf %1 wurde nicht gestoppt: %2</translation>
        </message>
        <message>
            <source>Following run %1 on %2; it goes on when the workbench closes.</source>
            <translation>Lauf %1 auf %2 wird verfolgt; er läuft weiter, wenn die Werkbank geschlossen wird.</translation>
        </message>
        <message>
            <source>Run %1 cannot be followed: %2</source>
            <translation>Lauf %1 kann nicht verfolgt werden: %2</translation>
        </message>
        <message>
            <source>Detached from run %1; it goes on (Runs: Attach follows it again).</source>
            <translation>Von Lauf %1 abgekoppelt; er läuft weiter (Läufe: Ankoppeln verfolgt ihn wieder).</translation>
        </message>
        <message>
            <source>The log of rank %1 cannot be fetched: %2</source>
            <translation>Das Protokoll von Rang %1 kann nicht geholt werden: %2</translation>
        </message>
    </context>
    <context>
        <name>sb::gui::RunConfigText</name>
        <message>
            <source>the initial weights cannot start this plan's model: %1</source>
            <translation>die Anfangsgewichte passen nicht zum Modell dieses Plans: %1</translation>
        </message>
        <message>
            <source>the initial weights path must not start with '-'</source>
            <translation>der Pfad der Anfangsgewichte darf nicht mit „-“ beginnen</translation>
        </message>
        <message>
            <source>the initial weights path contains a NUL character</source>
            <translation>der Pfad der Anfangsgewichte enthält ein NUL-Zeichen</translation>
        </message>
        <message>
            <source>no plan file given</source>
            <translation>keine Plandatei angegeben</translation>
        </message>
        <message>
            <source>max restarts must be 0 to %1</source>
            <translation>die Höchstzahl der Neustarts muss 0 bis %1 sein</translation>
        </message>
        <message>
            <source>the master port must be 1 to 65535</source>
            <translation>der Master-Port muss 1 bis 65535 sein</translation>
        </message>
        <message>
            <source>the stop grace must be 0 to %1 ms</source>
            <translation>die Schonfrist beim Stoppen muss 0 bis %1 ms betragen</translation>
        </message>
        <message>
            <source>the stop deadline must exceed the grace by 500 ms</source>
            <translation>die Frist zum Stoppen muss die Schonfrist um 500 ms überschreiten</translation>
        </message>
        <message>
            <source>the run name is longer than %1 characters</source>
            <translation>der Name des Laufs ist länger als %1 Zeichen</translation>
        </message>
        <message>
            <source>the run name contains a NUL character</source>
            <translation>der Name des Laufs enthält ein NUL-Zeichen</translation>
        </message>
        <message>
            <source>the resume folder contains a NUL character</source>
            <translation>der Ordner zum Fortsetzen enthält ein NUL-Zeichen</translation>
        </message>
        <message>
            <source>--master-addr &quot;%1&quot; is not a host name or address (letters, digits, &apos;.&apos;, &apos;-&apos;, &apos;_&apos;; an IPv6 address in brackets)</source>
            <translation>--master-addr „%1“ ist kein Hostname und keine Adresse (Buchstaben, Ziffern, „.“, „-“, „_“; eine IPv6-Adresse in eckigen Klammern)</translation>
        </message>
        <message>
            <source>&quot;%1&quot; is not a valid environment variable name</source>
            <translation>„%1“ ist kein gültiger Name für eine Umgebungsvariable</translation>
        </message>
        <message>
            <source>an environment value contains a NUL character</source>
            <translation>ein Wert einer Umgebungsvariable enthält ein NUL-Zeichen</translation>
        </message>
        <message>
            <source>no shardbench-core path given</source>
            <translation>kein Pfad zu shardbench-core angegeben</translation>
        </message>
        <message>
            <source>the shardbench-core path contains a NUL character</source>
            <translation>der Pfad zu shardbench-core enthält ein NUL-Zeichen</translation>
        </message>
        <message>
            <source>the working folder contains a NUL character</source>
            <translation>der Arbeitsordner enthält ein NUL-Zeichen</translation>
        </message>
        <message>
            <source>the shardbench-core path must not start with &apos;-&apos;</source>
            <translation>der Pfad zu shardbench-core darf nicht mit „-“ beginnen</translation>
        </message>
        <message>
            <source>no Python given for the PyTorch engine</source>
            <translation>für die PyTorch-Engine ist kein Python angegeben</translation>
        </message>
        <message>
            <source>the Python path must not contain &apos;=&apos; or start with &apos;-&apos;</source>
            <translation>der Python-Pfad darf kein „=“ enthalten und nicht mit „-“ beginnen</translation>
        </message>
        <message>
            <source>the Python path contains a NUL character</source>
            <translation>der Python-Pfad enthält ein NUL-Zeichen</translation>
        </message>
        <message>
            <source>the training script or one of its arguments contains a NUL character</source>
            <translation>das Trainingsskript oder eines seiner Argumente enthält ein NUL-Zeichen</translation>
        </message>
        <message>
            <source>the training script path must not start with &apos;-&apos;</source>
            <translation>der Pfad des Trainingsskripts darf nicht mit „-“ beginnen</translation>
        </message>
        <message>
            <source>a training script runs with the PyTorch engine only (--engine pytorch)</source>
            <translation>ein Trainingsskript läuft nur mit der PyTorch-Engine (--engine pytorch)</translation>
        </message>
        <message>
            <source>the training script %1 does not exist</source>
            <translation>das Trainingsskript %1 existiert nicht</translation>
        </message>
        <message>
            <source>an SSH run needs at least one host</source>
            <translation>ein SSH-Lauf braucht mindestens einen Host</translation>
        </message>
        <message>
            <source>no remote shardbench-core given</source>
            <translation>kein entferntes shardbench-core angegeben</translation>
        </message>
        <message>
            <source>the remote core path must not contain &apos;=&apos; or start with &apos;-&apos;</source>
            <translation>der entfernte Core-Pfad darf kein „=“ enthalten und nicht mit „-“ beginnen</translation>
        </message>
        <message>
            <source>no remote run folder given</source>
            <translation>kein entfernter Ordner für Läufe angegeben</translation>
        </message>
        <message>
            <source>the remote core path contains a NUL character</source>
            <translation>der entfernte Core-Pfad enthält ein NUL-Zeichen</translation>
        </message>
        <message>
            <source>the remote run folder contains a NUL character</source>
            <translation>der entfernte Ordner für Läufe enthält ein NUL-Zeichen</translation>
        </message>
        <message>
            <source>the remote working folder contains a NUL character</source>
            <translation>der entfernte Arbeitsordner enthält ein NUL-Zeichen</translation>
        </message>
        <message>
            <source>the SSH connect timeout must be 1 to %1 s</source>
            <translation>das SSH-Verbindungs-Timeout muss 1 bis %1 s betragen</translation>
        </message>
        <message>
            <source>the SSH keepalive interval must be 1 to %1 s</source>
            <translation>das SSH-Keepalive-Intervall muss 1 bis %1 s betragen</translation>
        </message>
        <message>
            <source>the SSH liveness timeout must exceed the keepalive interval and be at most %1 s</source>
            <translation>das SSH-Lebendigkeits-Timeout muss länger als das Keepalive-Intervall sein und höchstens %1 s betragen</translation>
        </message>
        <message>
            <source>the number of SSH connect tries must be 1 to %1</source>
            <translation>die Zahl der SSH-Verbindungsversuche muss 1 bis %1 sein</translation>
        </message>
        <message>
            <source>the plan file %1 does not exist</source>
            <translation>die Plandatei %1 existiert nicht</translation>
        </message>
        <message>
            <source>cannot read the plan file %1: %2</source>
            <translation>die Plandatei %1 kann nicht gelesen werden: %2</translation>
        </message>
        <message>
            <source>the plan file %1 is larger than 64 MiB</source>
            <translation>die Plandatei %1 ist größer als 64 MiB</translation>
        </message>
        <message>
            <source>%1: %2</source>
            <translation>%1: %2</translation>
        </message>
        <message>
            <source>srun is not on PATH: Slurm runs start from a machine of the cluster (a login node)</source>
            <translation>srun ist nicht im PATH: Slurm-Läufe starten von einem Rechner des Clusters (einem Login-Knoten)</translation>
        </message>
        <message>
            <source>the hosts provide %1 slots [%2] but the plan&apos;s mesh needs %3 ranks (%4 nodes x %5 procs per node)</source>
            <translation>die Hosts bieten %1 Slots [%2], aber das Mesh des Plans braucht %3 Ränge (%4 Knoten x %5 Prozesse pro Knoten)</translation>
        </message>
        <message>
            <source>the plan&apos;s mesh has %1 nodes but the run uses %2 hosts</source>
            <translation>das Mesh des Plans hat %1 Knoten, der Lauf nutzt aber %2 Hosts</translation>
        </message>
        <message>
            <source>the estimated peak of rank %1 is %2 but a rank has %3 (the plan&apos;s device memory): it would run out of memory (--ignore-memory-estimate launches it anyway)</source>
            <translation>der geschätzte Spitzenwert von Rang %1 ist %2, ein Rang hat aber %3 (der Gerätespeicher des Plans): ihm würde der Speicher ausgehen (--ignore-memory-estimate startet ihn trotzdem)</translation>
        </message>
        <message>
            <source>the estimated peak of rank %1 is %2 but a rank has %3 (this machine&apos;s available memory shared by its ranks): it would run out of memory (--ignore-memory-estimate launches it anyway)</source>
            <translation>der geschätzte Spitzenwert von Rang %1 ist %2, ein Rang hat aber %3 (der verfügbare Speicher dieses Rechners, geteilt durch seine Ränge): ihm würde der Speicher ausgehen (--ignore-memory-estimate startet ihn trotzdem)</translation>
        </message>
        <message>
            <source>the estimated peak of rank %1 is %2 but a rank has %3 (the plan&apos;s device memory); launched anyway (--ignore-memory-estimate)</source>
            <translation>der geschätzte Spitzenwert von Rang %1 ist %2, ein Rang hat aber %3 (der Gerätespeicher des Plans); trotzdem gestartet (--ignore-memory-estimate)</translation>
        </message>
        <message>
            <source>the estimated peak of rank %1 is %2 but a rank has %3 (this machine&apos;s available memory shared by its ranks); launched anyway (--ignore-memory-estimate)</source>
            <translation>der geschätzte Spitzenwert von Rang %1 ist %2, ein Rang hat aber %3 (der verfügbare Speicher dieses Rechners, geteilt durch seine Ränge); trotzdem gestartet (--ignore-memory-estimate)</translation>
        </message>
        <message>
            <source>the plan runs on cuda but %1 was built without CUDA (%2)</source>
            <translation>der Plan läuft auf cuda, aber %1 wurde ohne CUDA gebaut (%2)</translation>
        </message>
        <message>
            <source>%1 --version printed more than %2 and was stopped: the core&apos;s output was too long (is it shardbench-core?)</source>
            <translation>%1 --version gab mehr als %2 aus und wurde angehalten: die Ausgabe des Kerns war zu lang (ist es shardbench-core?)</translation>
        </message>
        <message>
            <source>the plan runs %1 CUDA rank(s) on this machine, which has %2 GPU(s)</source>
            <translation>der Plan startet %1 CUDA-Rang/Ränge auf diesem Rechner, der %2 GPU(s) hat</translation>
        </message>
        <message>
            <source>the plan runs %1 ranks on this machine, which has %2 core(s): at most %3 ranks per core can make progress</source>
            <translation>der Plan startet %1 Ränge auf diesem Rechner, der %2 Kern(e) hat: höchstens %3 Ränge pro Kern kommen voran</translation>
        </message>
        <message>
            <source>%1 ranks share %2 core(s): each step will be slow</source>
            <translation>%1 Ränge teilen sich %2 Kern(e): jeder Schritt wird langsam</translation>
        </message>
        <message>
            <source>the checkpoint folder %1 cannot be created (%2 is not writable)</source>
            <translation>der Checkpoint-Ordner %1 kann nicht angelegt werden (%2 ist nicht beschreibbar)</translation>
        </message>
        <message>
            <source>the checkpoint folder %1 cannot be created (%2 is not a folder)</source>
            <translation>der Checkpoint-Ordner %1 kann nicht angelegt werden (%2 ist kein Ordner)</translation>
        </message>
        <message>
            <source>the checkpoint folder %1 is not writable: %2</source>
            <translation>der Checkpoint-Ordner %1 ist nicht beschreibbar: %2</translation>
        </message>
        <message>
            <source>the checkpoint folder %1 has %2 free but one checkpoint takes about %3</source>
            <translation>der Checkpoint-Ordner %1 hat %2 frei, ein Checkpoint braucht aber etwa %3</translation>
        </message>
        <message>
            <source>--partition &quot;%1&quot; is not a partition name (letters, digits, &apos;.&apos;, &apos;-&apos;, &apos;_&apos;; a list separated by commas)</source>
            <translation>--partition „%1“ ist kein Partitionsname (Buchstaben, Ziffern, „.“, „-“, „_“; eine durch Kommas getrennte Liste)</translation>
        </message>
        <message>
            <source>--account &quot;%1&quot; is not an account name (letters, digits, &apos;.&apos;, &apos;-&apos;, &apos;_&apos;)</source>
            <translation>--account „%1“ ist kein Kontoname (Buchstaben, Ziffern, „.“, „-“, „_“)</translation>
        </message>
        <message>
            <source>--time &quot;%1&quot; is not a Slurm time limit (MM, MM:SS, HH:MM:SS, D-HH, D-HH:MM, D-HH:MM:SS or UNLIMITED)</source>
            <translation>--time „%1“ ist kein Slurm-Zeitlimit (MM, MM:SS, HH:MM:SS, D-HH, D-HH:MM, D-HH:MM:SS oder UNLIMITED)</translation>
        </message>
        <message>
            <source>--slurm-arg &quot;%1&quot; is not an srun option in its long form (--name or --name=value)</source>
            <translation>--slurm-arg „%1“ ist keine srun-Option in Langform (--name oder --name=wert)</translation>
        </message>
        <message>
            <source>--slurm-arg contains a NUL character</source>
            <translation>--slurm-arg enthält ein NUL-Zeichen</translation>
        </message>
        <message>
            <source>--slurm-arg %1: shardbench sets --%2 itself</source>
            <translation>--slurm-arg %1: shardbench setzt --%2 selbst</translation>
        </message>
        <message>
            <source>--slurm-arg %1: shardbench sets --%2 itself; use --%2 instead</source>
            <translation>--slurm-arg %1: shardbench setzt --%2 selbst; verwenden Sie stattdessen --%2</translation>
        </message>
        <message>
            <source>%1 &quot;%2&quot; cannot be written in a batch script: it contains %3</source>
            <translation>%1 &quot;%2&quot; kann nicht in ein Batch-Skript geschrieben werden: es enthält %3</translation>
        </message>
        <message>
            <source>empty host name</source>
            <translation>leerer Hostname</translation>
        </message>
        <message>
            <source>host name &quot;%1...&quot; is longer than 255 characters</source>
            <translation>der Hostname „%1...“ ist länger als 255 Zeichen</translation>
        </message>
        <message>
            <source>host name &quot;%1&quot; contains more than one &apos;@&apos;</source>
            <translation>der Hostname „%1“ enthält mehr als ein „@“</translation>
        </message>
        <message>
            <source>host name &quot;%1&quot; has an empty user, host or address part</source>
            <translation>im Hostnamen „%1“ ist der Benutzer-, Host- oder Adressteil leer</translation>
        </message>
        <message>
            <source>host name &quot;%1&quot; must not start with &apos;-&apos; (nor its part after &apos;@&apos;)</source>
            <translation>der Hostname „%1“ darf nicht mit „-“ beginnen (auch nicht sein Teil nach „@“)</translation>
        </message>
        <message>
            <source>host name &quot;%1&quot; contains %2, which is not allowed (letters, digits, &apos;.&apos;, &apos;-&apos; and &apos;_&apos; only)</source>
            <translation>der Hostname „%1“ enthält %2, das nicht erlaubt ist (nur Buchstaben, Ziffern, „.“, „-“ und „_“)</translation>
        </message>
        <message>
            <source>cannot create the launch folder %1</source>
            <translation>der Startordner %1 kann nicht angelegt werden</translation>
        </message>
        <message>
            <source>the plan for the ranks was not written: %1</source>
            <translation>der Plan für die Ränge wurde nicht geschrieben: %1</translation>
        </message>
        <message>
            <source>%1 is not a DCP checkpoint (a step-NNNNNN folder holding .metadata): a PyTorch run resumes from torch.distributed.checkpoint</source>
            <translation>%1 ist kein DCP-Checkpoint (ein Ordner step-NNNNNN mit .metadata): ein PyTorch-Lauf setzt an einem torch.distributed.checkpoint fort</translation>
        </message>
    </context>
    <context>
        <name>sb::gui::RunController</name>
        <message>
            <source>The SSH config for the hosts added by hand cannot be written: %1</source>
            <translation>Die SSH-Konfiguration für die von Hand hinzugefügten Hosts kann nicht geschrieben werden: %1</translation>
        </message>
        <message>
            <source>The pre-flight checks failed; nothing was started.</source>
            <translation>Die Vorabprüfungen sind fehlgeschlagen; es wurde nichts gestartet.</translation>
        </message>
        <message>
            <source>The run store %1 cannot be opened: %2</source>
            <translation>Der Laufspeicher %1 kann nicht geöffnet werden: %2</translation>
        </message>
        <message>
            <source>The run cannot be recorded: %1</source>
            <translation>Der Lauf kann nicht aufgezeichnet werden: %1</translation>
        </message>
        <message>
            <source>The run cannot be detached: %1</source>
            <translation>Der Lauf kann nicht abgekoppelt werden: %1</translation>
        </message>
        <message>
            <source>The detached run did not start: %1</source>
            <translation>Der abgekoppelte Lauf ist nicht gestartet: %1</translation>
        </message>
        <message>
            <source>Cannot attach to the run: %1</source>
            <translation>Ankoppeln an den Lauf nicht möglich: %1</translation>
        </message>
        <message>
            <source>A run launched from the workbench is in progress; stop it or wait for it to end first.</source>
            <translation>Ein von der Werkbank gestarteter Lauf ist im Gange; stoppen Sie ihn oder warten Sie zuerst sein Ende ab.</translation>
        </message>
        <message>
            <source>Run %1 is being followed in the Run area; detach from it or stop it first.</source>
            <translation>Lauf %1 wird im Bereich „Lauf“ verfolgt; koppeln Sie sich zuerst von ihm ab oder stoppen Sie ihn.</translation>
        </message>
    </context>
    <context>
        <name>sb::gui::RunText</name>
        <message>
            <source>abandoned</source>
            <translation>verwaist</translation>
        </message>
        <message>
            <source>running on the cluster — not attached</source>
            <translation>läuft auf dem Cluster — nicht verbunden</translation>
        </message>
        <message>
            <source>starting</source>
            <translation>startet</translation>
        </message>
        <message>
            <source>running</source>
            <translation>läuft</translation>
        </message>
        <message>
            <source>completed</source>
            <translation>abgeschlossen</translation>
        </message>
        <message>
            <source>failed</source>
            <translation>fehlgeschlagen</translation>
        </message>
        <message>
            <source>cancelled</source>
            <translation>abgebrochen</translation>
        </message>
        <message>
            <source>%1 s</source>
            <translation>%1 s</translation>
        </message>
        <message>
            <source>%1 min %2 s</source>
            <translation>%1 min %2 s</translation>
        </message>
        <message>
            <source>%1 h %2 min</source>
            <translation>%1 h %2 min</translation>
        </message>
        <message>
            <source>%1 tokens/s</source>
            <translation>%1 Tokens/s</translation>
        </message>
        <message>
            <source>%1 × %2 ranks</source>
            <translation>%1 × %2 Ränge</translation>
        </message>
        <message>
            <source>, %1 replicas</source>
            <translation>, %1 Replikate</translation>
        </message>
        <message numerus="yes">
            <source>%1, %n unit(s), %2</source>
            <translation>
                <numerusform>%1, %n Einheit, %2</numerusform>
                <numerusform>%1, %n Einheiten, %2</numerusform>
            </translation>
        </message>
        <message>
            <source>running on the cluster — attached</source>
            <translation>läuft auf dem Cluster — angekoppelt</translation>
        </message>
    </context>
    <context>
        <name>sb::gui::RunsController</name>
        <message>
            <source>Cannot read the run store: %1</source>
            <translation>Der Laufspeicher kann nicht gelesen werden: %1</translation>
        </message>
        <message numerus="yes">
            <source>%n run(s) in %1</source>
            <translation>
                <numerusform>%n Lauf in %1</numerusform>
                <numerusform>%n Läufe in %1</numerusform>
            </translation>
        </message>
        <message numerus="yes">
            <source>%n detached run(s) could not be reached: %1</source>
            <translation>
                <numerusform>%n abgekoppelter Lauf war nicht erreichbar: %1</numerusform>
                <numerusform>%n abgekoppelte Läufe waren nicht erreichbar: %1</numerusform>
            </translation>
        </message>
        <message numerus="yes">
            <source>Catching up with %n detached run(s)…</source>
            <translation>
                <numerusform>%n abgekoppelter Lauf wird nachgeholt…</numerusform>
                <numerusform>%n abgekoppelte Läufe werden nachgeholt…</numerusform>
            </translation>
        </message>
        <message>
            <source>The run store cannot be written: %1</source>
            <translation>Der Laufspeicher kann nicht geschrieben werden: %1</translation>
        </message>
        <message>
            <source>There is no run %1 in the store.</source>
            <translation>Im Speicher gibt es keinen Lauf %1.</translation>
        </message>
        <message>
            <source>Run %1 has not ended: stop it before deleting it.</source>
            <translation>Lauf %1 ist nicht beendet: Stoppen Sie ihn, bevor Sie ihn löschen.</translation>
        </message>
        <message>
            <source>Run %1</source>
            <translation>Lauf %1</translation>
        </message>
        <message>
            <source>Delete run(s) %1 from the run store? Their metrics, logs, events and checkpoint records go and cannot be restored. Checkpoint files stay where they are on disk: delete those folders yourself if you no longer need them.</source>
            <translation>Lauf/Läufe %1 aus dem Laufspeicher löschen? Metriken, Logs, Ereignisse und Checkpoint-Einträge werden entfernt und lassen sich nicht wiederherstellen. Checkpoint-Dateien bleiben auf der Festplatte: Löschen Sie diese Ordner selbst, wenn Sie sie nicht mehr brauchen.</translation>
        </message>
        <message>
            <source>Delete runs</source>
            <translation>Läufe löschen</translation>
        </message>
    </context>
    <context>
        <name>sb::gui::RunsGroupProxy</name>
        <message>
            <source>not known</source>
            <translation>unbekannt</translation>
        </message>
        <message>
            <source>, best final loss %1</source>
            <translation>, bester letzter Verlust %1</translation>
        </message>
        <message numerus="yes">
            <source>%1: %2 — %n run(s)</source>
            <translation>
                <numerusform>%1: %2 — %n Lauf</numerusform>
                <numerusform>%1: %2 — %n Läufe</numerusform>
            </translation>
        </message>
    </context>
    <context>
        <name>sb::gui::ParallelCoordinates</name>
        <message>
            <source>No run to draw yet: each run the table lists appears here as a line once its plan has been read.</source>
            <translation>Noch kein Lauf zu zeichnen: Jeder Lauf der Tabelle erscheint hier als Linie, sobald sein Plan gelesen ist.</translation>
        </message>
        <message>
            <source>Colour: final loss, blue the lowest, red the highest, grey none. Click a line to select its run (Ctrl+click adds it); drag along an axis to select the runs in a range.</source>
            <translation>Farbe: letzter Verlust, blau der niedrigste, rot der höchste, grau keiner. Eine Linie anklicken wählt ihren Lauf (Strg+Klick fügt ihn hinzu); entlang einer Achse ziehen wählt die Läufe in einem Bereich.</translation>
        </message>
    </context>
    <context>
        <name>sb::gui::RunsModel</name>
        <message>
            <source>%1 (rank %2)</source>
            <translation>%1 (Rang %2)</translation>
        </message>
        <message>
            <source>rank %1: %2</source>
            <translation>Rang %1: %2</translation>
        </message>
        <message>
            <source>Run %1 (%2)</source>
            <translation>Lauf %1 (%2)</translation>
        </message>
        <message>
            <source>Resumed from run %1: %2</source>
            <translation>Fortgesetzt von Lauf %1: %2</translation>
        </message>
        <message>
            <source>Run</source>
            <translation>Lauf</translation>
        </message>
        <message>
            <source>Name</source>
            <translation>Name</translation>
        </message>
        <message>
            <source>Status</source>
            <translation>Status</translation>
        </message>
        <message>
            <source>Reason</source>
            <translation>Grund</translation>
        </message>
        <message>
            <source>World size</source>
            <translation>Weltgröße</translation>
        </message>
        <message>
            <source>Plan</source>
            <translation>Plan</translation>
        </message>
        <message>
            <source>Started</source>
            <translation>Gestartet</translation>
        </message>
        <message>
            <source>Duration</source>
            <translation>Dauer</translation>
        </message>
        <message>
            <source>Final loss</source>
            <translation>Letzter Verlust</translation>
        </message>
        <message>
            <source>Tokens/s</source>
            <translation>Tokens/s</translation>
        </message>
        <message>
            <source>Peak memory per rank</source>
            <translation>Spitzenspeicher je Rang</translation>
        </message>
        <message>
            <source>Tags</source>
            <translation>Tags</translation>
        </message>
        <message>
            <source>mixed</source>
            <translation>gemischt</translation>
        </message>
        <message>
            <source>own</source>
            <translation>eigener</translation>
        </message>
        <message>
            <source>yes</source>
            <translation>ja</translation>
        </message>
        <message>
            <source>no</source>
            <translation>nein</translation>
        </message>
        <message>
            <source>Reshard</source>
            <translation>Reshard</translation>
        </message>
        <message>
            <source>Param dtype</source>
            <translation>Param-Datentyp</translation>
        </message>
        <message>
            <source>Reduce dtype</source>
            <translation>Reduce-Datentyp</translation>
        </message>
        <message>
            <source>CPU offload</source>
            <translation>CPU-Auslagerung</translation>
        </message>
        <message>
            <source>Micro-batch</source>
            <translation>Micro-Batch</translation>
        </message>
        <message>
            <source>Global batch (tokens)</source>
            <translation>Globaler Batch (Tokens)</translation>
        </message>
        <message>
            <source>Learning rate</source>
            <translation>Lernrate</translation>
        </message>
        <message>
            <source>Eval loss</source>
            <translation>Validierungsverlust</translation>
        </message>
    </context>
    <context>
        <name>sb::gui::RunsView</name>
        <message>
            <source>Every status</source>
            <translation>Jeder Status</translation>
        </message>
        <message>
            <source>Refresh</source>
            <translation>Aktualisieren</translation>
        </message>
        <message>
            <source>Checkpoints…</source>
            <translation>Checkpoints…</translation>
        </message>
        <message>
            <source>Attach</source>
            <translation>Ankoppeln</translation>
        </message>
        <message>
            <source>Follow this detached run in the Run area: its backlog is fetched, then its steps as they come</source>
            <translation>Diesen abgekoppelten Lauf im Bereich Lauf verfolgen: erst wird das Bisherige geholt, dann jeder neue Schritt</translation>
        </message>
        <message>
            <source>No runs yet. Set up a plan, then press Launch in the Run area (or run 'shardbench-cli run PLAN.json'): every run of this store is listed here.</source>
            <translation>Noch keine Läufe. Richten Sie einen Plan ein und drücken Sie im Bereich „Lauf“ auf Starten (oder führen Sie 'shardbench-cli run PLAN.json' aus): Jeder Lauf dieses Speichers erscheint hier.</translation>
        </message>
        <message>
            <source>No run matches the filter.</source>
            <translation>Kein Lauf passt zum Filter.</translation>
        </message>
        <message>
            <source>Rename, tags and notes…</source>
            <translation>Umbenennen, Tags und Notizen…</translation>
        </message>
        <message>
            <source>Delete run %1…</source>
            <translation>Lauf %1 löschen…</translation>
        </message>
        <message>
            <source>Delete %1 runs…</source>
            <translation>%1 Läufe löschen…</translation>
        </message>
        <message>
            <source>Select a run to see its charts, memory, logs, plan and checkpoints; select two or more (Ctrl+click) to compare them and to see how their plans differ.</source>
            <translation>Einen Lauf auswählen, um Diagramme, Speicher, Logs, Plan und Checkpoints zu sehen; zwei oder mehr (Strg+Klick) auswählen, um sie und die Unterschiede ihrer Pläne zu vergleichen.</translation>
        </message>
        <message>
            <source>Filter: text, or fields such as world=8 lr&lt;1e-3 param:bf16 loss&lt;3</source>
            <translation>Filter: Text oder Felder wie world=8 lr&lt;1e-3 param:bf16 loss&lt;3</translation>
        </message>
        <message>
            <source>Words find runs by name, tag, note, status, reason or plan. KEY:TEXT, KEY=VALUE, KEY&lt;N, KEY&gt;N, KEY&lt;=N and KEY&gt;=N keep the runs whose column matches; keys: world, reshard, param, reduce, offload, micro, batch, lr, loss, eval, rate, peak, duration, status, name, tags.</source>
            <translation>Wörter finden Läufe nach Name, Tag, Notiz, Status, Grund oder Plan. KEY:TEXT, KEY=WERT, KEY&lt;N, KEY&gt;N, KEY&lt;=N und KEY&gt;=N behalten die Läufe, deren Spalte passt; Schlüssel: world, reshard, param, reduce, offload, micro, batch, lr, loss, eval, rate, peak, duration, status, name, tags.</translation>
        </message>
        <message>
            <source>Group by</source>
            <translation>Gruppieren nach</translation>
        </message>
        <message>
            <source>nothing</source>
            <translation>nichts</translation>
        </message>
        <message>
            <source>Table</source>
            <translation>Tabelle</translation>
        </message>
        <message>
            <source>Parallel coordinates</source>
            <translation>Parallele Koordinaten</translation>
        </message>
        <message>
            <source>Every run as a line across its plan&apos;s fields and what it reached: final loss, eval loss, tokens/s, peak memory</source>
            <translation>Jeder Lauf als Linie über die Felder seines Plans und das Erreichte: letzter Verlust, Validierungsverlust, Tokens/s, Spitzenspeicher</translation>
        </message>
        <message>
            <source>Right-click to choose the columns shown</source>
            <translation>Rechtsklick, um die angezeigten Spalten zu wählen</translation>
        </message>
    </context>
    <context>
        <name>sb::gui::TargetChooser</name>
        <message>
            <source>Through Slurm (srun from this machine, a login node):</source>
            <translation>Über Slurm (srun von diesem Rechner, einem Login-Knoten):</translation>
        </message>
        <message>
            <source>the default partition</source>
            <translation>die Standard-Partition</translation>
        </message>
        <message>
            <source>the default account</source>
            <translation>das Standard-Konto</translation>
        </message>
        <message>
            <source>the partition&apos;s limit, e.g. 2:00:00</source>
            <translation>das Limit der Partition, z. B. 2:00:00</translation>
        </message>
        <message>
            <source>This machine</source>
            <translation>Dieser Rechner</translation>
        </message>
        <message>
            <source>These hosts (over SSH):</source>
            <translation>Diese Hosts (über SSH):</translation>
        </message>
        <message numerus="yes">
            <source>%1 (%n rank(s))</source>
            <translation>
                <numerusform>%1 (%n Rang)</numerusform>
                <numerusform>%1 (%n Ränge)</numerusform>
            </translation>
        </message>
        <message>
            <source>%1 (the plan&apos;s ranks per node)</source>
            <translation>%1 (die Ränge je Knoten des Plans)</translation>
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
            <source>Of a headerless token file (nanoGPT's .bin); auto: uint16 when the vocabulary fits, else uint32. llm.c's and Megatron's files say their own, and a different one here is refused</source>
            <translation>Einer Token-Datei ohne Kopf (nanoGPTs .bin); automatisch: uint16, wenn das Vokabular passt, sonst uint32. Dateien von llm.c und Megatron nennen ihre eigene, eine andere hier wird abgelehnt</translation>
        </message>
        <message>
            <source>auto</source>
            <translation>automatisch</translation>
        </message>
        <message>
            <source>uint32</source>
            <translation>uint32</translation>
        </message>
        <message>
            <source>uint16</source>
            <translation>uint16</translation>
        </message>
        <message>
            <source>Token width</source>
            <translation>Token-Breite</translation>
        </message>
        <message>
            <source>A token file (nanoGPT's headerless .bin, llm.c's .bin, a Megatron .bin/.idx pair) or a text file, or a pattern such as train_*.bin for several; relative to the plan file</source>
            <translation>Eine Token-Datei (nanoGPTs .bin ohne Kopf, llm.cs .bin, ein Megatron-Paar .bin/.idx) oder eine Textdatei, oder ein Muster wie train_*.bin für mehrere; relativ zur Plandatei</translation>
        </message>
        <message>
            <source>A pattern: the files it matches where the run trains are read as one stream, in name order.</source>
            <translation>Ein Muster: die passenden Dateien werden dort, wo der Lauf trainiert, als ein Strom in Namensreihenfolge gelesen.</translation>
        </message>
        <message>
            <source>A token or text file of the training data's kind, in any of its formats; relative to the plan file</source>
            <translation>Eine Token- oder Textdatei von der Art der Trainingsdaten, in einem ihrer Formate; relativ zur Plandatei</translation>
        </message>
        <message>
            <source>none: a held-out fraction</source>
            <translation>keine: ein zurückgehaltener Anteil</translation>
        </message>
        <message>
            <source>Validation file</source>
            <translation>Validierungsdatei</translation>
        </message>
        <message>
            <source>The last fraction of the training file, which training then never reads</source>
            <translation>Der letzte Anteil der Trainingsdatei, den das Training dann nie liest</translation>
        </message>
        <message>
            <source>none: a validation file</source>
            <translation>keiner: eine Validierungsdatei</translation>
        </message>
        <message>
            <source>Held-out batches of micro-batch x world sequences, the same at every world size; 0 takes no validation loss</source>
            <translation>Zurückgehaltene Batches aus Mikro-Batch x Welt Sequenzen, bei jeder Weltgröße dieselben; 0 berechnet keinen Validierungsverlust</translation>
        </message>
        <message>
            <source>Validation loss</source>
            <translation>Validierungsverlust</translation>
        </message>
        <message>
            <source>Held-out fraction</source>
            <translation>Zurückgehaltener Anteil</translation>
        </message>
        <message>
            <source>Evaluate every</source>
            <translation>Auswerten alle</translation>
        </message>
        <message>
            <source>Validation batches</source>
            <translation>Validierungs-Batches</translation>
        </message>
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
        <message>
            <source>Steps</source>
            <translation>Schritte</translation>
        </message>
        <message>
            <source>Checkpoint folder</source>
            <translation>Checkpoint-Ordner</translation>
        </message>
        <message>
            <source>Checkpoint every</source>
            <translation>Checkpoint alle</translation>
        </message>
        <message>
            <source>no checkpoints</source>
            <translation>keine Checkpoints</translation>
        </message>
        <message>
            <source>Where runs save sharded checkpoints (step-NNNNNN folders); relative to the plan file</source>
            <translation>Wo Läufe geshardete Checkpoints speichern (Ordner step-NNNNNN); relativ zur Plandatei</translation>
        </message>
        <message>
            <source>only at the end</source>
            <translation>nur am Ende</translation>
        </message>
        <message>
            <source> steps</source>
            <translation> Schritte</translation>
        </message>
        <message>
            <source>Learning rate</source>
            <translation>Lernrate</translation>
        </message>
        <message>
            <source>Beta 1</source>
            <translation>Beta 1</translation>
        </message>
        <message>
            <source>Beta 2</source>
            <translation>Beta 2</translation>
        </message>
        <message>
            <source>Epsilon</source>
            <translation>Epsilon</translation>
        </message>
        <message>
            <source>Weight decay</source>
            <translation>Weight Decay</translation>
        </message>
        <message>
            <source>Warmup steps</source>
            <translation>Aufwärmschritte</translation>
        </message>
        <message>
            <source>Min. LR ratio</source>
            <translation>Min. LR-Anteil</translation>
        </message>
        <message>
            <source>Gradient clipping</source>
            <translation>Gradienten-Clipping</translation>
        </message>
        <message>
            <source>Seed</source>
            <translation>Seed</translation>
        </message>
        <message>
            <source>Checkpoints kept</source>
            <translation>Behaltene Checkpoints</translation>
        </message>
        <message>
            <source>Batch</source>
            <translation>Batch</translation>
        </message>
        <message>
            <source>Optimizer (AdamW)</source>
            <translation>Optimierer (AdamW)</translation>
        </message>
        <message>
            <source>Data</source>
            <translation>Daten</translation>
        </message>
        <message>
            <source>Checkpoints</source>
            <translation>Checkpoints</translation>
        </message>
        <message>
            <source>Schedule</source>
            <translation>Verlauf</translation>
        </message>
        <message>
            <source>constant</source>
            <translation>konstant</translation>
        </message>
        <message>
            <source>cosine to the min. LR</source>
            <translation>Kosinus bis zur min. LR</translation>
        </message>
        <message>
            <source>Source</source>
            <translation>Quelle</translation>
        </message>
        <message>
            <source>synthetic tokens</source>
            <translation>synthetische Tokens</translation>
        </message>
        <message>
            <source>token file</source>
            <translation>Token-Datei</translation>
        </message>
        <message>
            <source>text file (bytes)</source>
            <translation>Textdatei (Bytes)</translation>
        </message>
        <message>
            <source>Choose…</source>
            <translation>Wählen…</translation>
        </message>
        <message>
            <source>no file</source>
            <translation>keine Datei</translation>
        </message>
        <message>
            <source>Save in the background (async)</source>
            <translation>Im Hintergrund speichern (async)</translation>
        </message>
        <message>
            <source>off</source>
            <translation>aus</translation>
        </message>
        <message>
            <source>Arithmetic token sequences, generated on every rank: no file needed.</source>
            <translation>Arithmetische Token-Folgen, auf jedem Rang erzeugt: keine Datei nötig.</translation>
        </message>
        <message>
            <source>Not on this machine: the run reads it where it trains.</source>
            <translation>Nicht auf diesem Rechner: Der Lauf liest sie dort, wo er trainiert.</translation>
        </message>
        <message>
            <source>Looking at the file...</source>
            <translation>Datei wird geprüft …</translation>
        </message>
        <message>
            <source>Not a regular file.</source>
            <translation>Keine reguläre Datei.</translation>
        </message>
        <message>
            <source>%1 is not a whole number of %2-bit tokens.</source>
            <translation>%1 ist keine ganze Zahl von %2-Bit-Token.</translation>
        </message>
        <message>
            <source>%1 tokens of %2 bits in a %3 file on this machine.</source>
            <translation>%1 Token zu %2 Bit in einer %3-Datei auf diesem Rechner.</translation>
        </message>
        <message>
            <source>%1 tokens: fewer than one sequence of %2.</source>
            <translation>%1 Tokens: weniger als eine Sequenz von %2.</translation>
        </message>
        <message>
            <source>%1 tokens (%2) on this machine.</source>
            <translation>%1 Tokens (%2) auf diesem Rechner.</translation>
        </message>
        <message>
            <source>Choose the data file</source>
            <translation>Datendatei wählen</translation>
        </message>
        <message>
            <source>Token and text files (*.bin *.idx *.txt);;All files (*)</source>
            <translation>Token- und Textdateien (*.bin *.idx *.txt);;Alle Dateien (*)</translation>
        </message>
    </context>
<context>
    <name>sb::gui::FieldNotes</name>
        <message>
            <source>%1: %2</source>
            <translation>%1: %2</translation>
        </message>
</context>
<context>
    <name>sb::gui::FileBanner</name>
        <message>
            <source>Show the first</source>
            <translation>Erstes zeigen</translation>
        </message>
        <message>
            <source>1 problem in %1: the value the plan cannot use is kept as written and marked in red. Saving keeps it until you fix it.</source>
            <translation>1 Problem in %1: Der Wert, den der Plan nicht verwenden kann, bleibt wie geschrieben erhalten und ist rot markiert. Speichern behält ihn, bis Sie ihn korrigieren.</translation>
        </message>
        <message>
            <source>%1 problems in %2: the values the plan cannot use are kept as written and marked in red. Saving keeps them until you fix them.</source>
            <translation>%1 Probleme in %2: Werte, die der Plan nicht verwenden kann, bleiben wie geschrieben erhalten und sind rot markiert. Speichern behält sie, bis Sie sie korrigieren.</translation>
        </message>
</context>
<context>
    <name>sb::gui::NumberField</name>
        <message>
            <source>a value is needed</source>
            <translation>ein Wert ist nötig</translation>
        </message>
        <message>
            <source>&quot;%1&quot; is not a number</source>
            <translation>„%1“ ist keine Zahl</translation>
        </message>
        <message>
            <source>%1 is not a whole number</source>
            <translation>%1 ist keine ganze Zahl</translation>
        </message>
        <message>
            <source>write %1 in digits: %2</source>
            <translation>schreiben Sie %1 in Ziffern: %2</translation>
        </message>
        <message>
            <source>%1 is less than %2, the smallest allowed</source>
            <translation>%1 ist kleiner als %2, der kleinste erlaubte Wert</translation>
        </message>
        <message>
            <source>%1 is more than %2, the largest allowed</source>
            <translation>%1 ist größer als %2, der größte erlaubte Wert</translation>
        </message>
</context>
<context>
    <name>sb::gui::SeriesChart</name>
        <message>
            <source>No data yet</source>
            <translation>Noch keine Daten</translation>
        </message>
        <message>
            <source>%1: %2</source>
            <translation>%1: %2</translation>
        </message>
        <message>
            <source>value</source>
            <translation>Wert</translation>
        </message>
        <message>
            <source>Reset zoom</source>
            <translation>Zoom zurücksetzen</translation>
        </message>
        <message>
            <source>Logarithmic scale</source>
            <translation>Logarithmische Skala</translation>
        </message>
</context>
<context>
    <name>sb::gui::RunNotesDialog</name>
        <message>
            <source>lr-sweep, fp32, baseline</source>
            <translation>lr-sweep, fp32, baseline</translation>
        </message>
        <message>
            <source>Name</source>
            <translation>Name</translation>
        </message>
        <message>
            <source>Tags</source>
            <translation>Tags</translation>
        </message>
        <message>
            <source>Notes</source>
            <translation>Notizen</translation>
        </message>
</context>
<context>
    <name>sb::gui::RunPage</name>
        <message>
            <source>started from the weights %1</source>
            <translation>gestartet von den Gewichten %1</translation>
        </message>
        <message>
            <source>This run wrote no checkpoints. To have them, set a checkpoint folder and an interval in the plan's training settings (Setup, Training, Checkpoints) before launching.</source>
            <translation>Dieser Lauf hat keine Checkpoints geschrieben. Dafür vor dem Start in den Trainingseinstellungen des Plans (Einrichtung, Training, Checkpoints) einen Checkpoint-Ordner und ein Intervall festlegen.</translation>
        </message>
        <message>
            <source>run %1</source>
            <translation>Lauf %1</translation>
        </message>
        <message>
            <source>Run %1 cannot be read from the run store: %2</source>
            <translation>Lauf %1 kann nicht aus dem Laufspeicher gelesen werden: %2</translation>
        </message>
        <message>
            <source>on this machine</source>
            <translation>auf diesem Rechner</translation>
        </message>
        <message>
            <source>through Slurm</source>
            <translation>über Slurm</translation>
        </message>
        <message>
            <source>through Slurm on %1</source>
            <translation>über Slurm auf %1</translation>
        </message>
        <message>
            <source>over SSH</source>
            <translation>über SSH</translation>
        </message>
        <message>
            <source>over SSH on %1</source>
            <translation>über SSH auf %1</translation>
        </message>
        <message>
            <source>detached, run directory %1</source>
            <translation>abgekoppelt, Laufverzeichnis %1</translation>
        </message>
        <message>
            <source>world size %1</source>
            <translation>Weltgröße %1</translation>
        </message>
        <message>
            <source>started %1</source>
            <translation>gestartet %1</translation>
        </message>
        <message>
            <source>ran %1</source>
            <translation>Dauer %1</translation>
        </message>
        <message>
            <source>restarts %1 of %2</source>
            <translation>Neustarts %1 von %2</translation>
        </message>
        <message>
            <source>resumed from run %1</source>
            <translation>fortgesetzt von Lauf %1</translation>
        </message>
        <message>
            <source>mean %1</source>
            <translation>Mittel %1</translation>
        </message>
        <message>
            <source>%1 unreadable lines from the ranks</source>
            <translation>%1 unlesbare Zeilen der Ränge</translation>
        </message>
        <message>
            <source>tags: %1</source>
            <translation>Tags: %1</translation>
        </message>
        <message>
            <source>Plan</source>
            <translation>Plan</translation>
        </message>
        <message>
            <source>Checkpoints (%1)</source>
            <translation>Checkpoints (%1)</translation>
        </message>
        <message>
            <source>Checkpoints</source>
            <translation>Checkpoints</translation>
        </message>
        <message>
            <source>Verify, export or restore…</source>
            <translation>Prüfen, exportieren oder wiederherstellen…</translation>
        </message>
        <message>
            <source>Opens this run in the Checkpoints area</source>
            <translation>Öffnet diesen Lauf im Bereich Checkpoints</translation>
        </message>
        <message>
            <source>Charts and memory</source>
            <translation>Diagramme und Speicher</translation>
        </message>
        <message>
            <source>Logs</source>
            <translation>Logs</translation>
        </message>
        <message>
            <source>its recorded plan cannot be read</source>
            <translation>sein gespeicherter Plan ist nicht lesbar</translation>
        </message>
</context>
    <context>
        <name>sb::gui::EngineChooser</name>
        <message>
            <source>shardbench-core</source>
            <translation>shardbench-core</translation>
        </message>
        <message>
            <source>PyTorch FSDP2: the plan&apos;s exported script</source>
            <translation>PyTorch FSDP2: das exportierte Skript des Plans</translation>
        </message>
        <message>
            <source>PyTorch: a script of mine</source>
            <translation>PyTorch: ein eigenes Skript</translation>
        </message>
        <message>
            <source>What every rank runs. A PyTorch script gets torchrun&apos;s environment, reports through shardbench_report.py and resumes from the newest checkpoint in its own folder</source>
            <translation>Was jeder Rang ausführt. Ein PyTorch-Skript erhält die Umgebung von torchrun, meldet über shardbench_report.py und setzt am neuesten Checkpoint in seinem eigenen Ordner fort</translation>
        </message>
        <message>
            <source>Script</source>
            <translation>Skript</translation>
        </message>
        <message>
            <source>train.py, where the ranks run</source>
            <translation>train.py, dort wo die Ränge laufen</translation>
        </message>
        <message>
            <source>Choose…</source>
            <translation>Auswählen…</translation>
        </message>
        <message>
            <source>Python</source>
            <translation>Python</translation>
        </message>
        <message>
            <source>The Python that runs the script where the ranks run: a path, or a name on the PATH there</source>
            <translation>Das Python, das das Skript dort ausführt, wo die Ränge laufen: ein Pfad oder ein Name im PATH dort</translation>
        </message>
        <message>
            <source>Training script</source>
            <translation>Trainingsskript</translation>
        </message>
        <message>
            <source>Python (*.py);;All files (*)</source>
            <translation>Python (*.py);;Alle Dateien (*)</translation>
        </message>
        <message>
            <source>Arguments</source>
            <translation>Argumente</translation>
        </message>
        <message>
            <source>none</source>
            <translation>keine</translation>
        </message>
        <message>
            <source>The script&apos;s own arguments, after it on every rank&apos;s command line (quotes group words)</source>
            <translation>Die eigenen Argumente des Skripts, nach ihm auf der Befehlszeile jedes Rangs (Anführungszeichen fassen Wörter zusammen)</translation>
        </message>
    </context>
</TS>
