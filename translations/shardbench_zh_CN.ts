<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="zh_CN">
    <context>
        <name>sb::gui::ChartExport</name>
        <message>
            <source>Cannot write %1: %2</source>
            <translation>无法写入 %1：%2</translation>
        </message>
        <message>
            <source>Cannot write the image %1</source>
            <translation>无法写入图像 %1</translation>
        </message>
        <message>
            <source>shardbench memory estimate</source>
            <translation>shardbench 内存估算</translation>
        </message>
        <message>
            <source>Peak memory per rank and memory through one training step</source>
            <translation>每个 rank 的峰值内存及一个训练步骤中的内存变化</translation>
        </message>
        <message>
            <source>Cannot write the drawing %1</source>
            <translation>无法写入图形 %1</translation>
        </message>
        <message>
            <source>The plan has errors, so there is no estimate to export.</source>
            <translation>计划存在错误，没有可导出的估算。</translation>
        </message>
        <message>
            <source>This chart has no data to export yet.</source>
            <translation>此图表尚无可导出的数据。</translation>
        </message>
    </context>
    <context>
        <name>sb::gui::ChartViewBase</name>
        <message>
            <source>Export as PNG…</source>
            <translation>导出为 PNG…</translation>
        </message>
        <message>
            <source>Export as SVG…</source>
            <translation>导出为 SVG…</translation>
        </message>
        <message>
            <source>Export data as CSV…</source>
            <translation>将数据导出为 CSV…</translation>
        </message>
    </context>
    <context>
        <name>sb::gui::CheckpointsController</name>
        <message>
            <source>Exported to %1 for Hugging Face (AutoModelForCausalLM.from_pretrained reads it).</source>
            <translation>已导出到 %1，供 Hugging Face 使用（AutoModelForCausalLM.from_pretrained 可读取）。</translation>
        </message>
        <message>
            <source>Export for Hugging Face into a new folder</source>
            <translation>导出为 Hugging Face（新文件夹）</translation>
        </message>
        <message>
            <source>run %1</source>
            <translation>运行 %1</translation>
        </message>
        <message>
            <source>run %1 (%2)</source>
            <translation>运行 %1（%2）</translation>
        </message>
        <message>
            <source>%1 — %2, %3</source>
            <translation>%1 — %2，%3</translation>
        </message>
        <message>
            <source>This run has no checkpoints (set a checkpoint folder in the plan&apos;s training settings).</source>
            <translation>此运行没有检查点（请在计划的训练设置中指定检查点文件夹）。</translation>
        </message>
        <message numerus="yes">
            <source>%n checkpoint(s).</source>
            <translation>
                <numerusform>%n 个检查点。</numerusform>
            </translation>
        </message>
        <message>
            <source>Verifying step %1…</source>
            <translation>正在校验第 %1 步…</translation>
        </message>
        <message>
            <source>Exporting step %1 to %2…</source>
            <translation>正在将第 %1 步导出到 %2…</translation>
        </message>
        <message>
            <source>Export the checkpoint as .safetensors</source>
            <translation>将检查点导出为 .safetensors</translation>
        </message>
        <message>
            <source>safetensors (*.safetensors)</source>
            <translation>safetensors (*.safetensors)</translation>
        </message>
        <message>
            <source>Verification cancelled.</source>
            <translation>校验已取消。</translation>
        </message>
        <message>
            <source>Export cancelled; nothing was written.</source>
            <translation>导出已取消；未写入任何内容。</translation>
        </message>
        <message>
            <source>Verified: every file and every shard matches its SHA-256.</source>
            <translation>校验通过：每个文件和每个分片都与其 SHA-256 一致。</translation>
        </message>
        <message>
            <source>The checkpoint is damaged: %1</source>
            <translation>检查点已损坏：%1</translation>
        </message>
        <message>
            <source>Exported to %1 (%2).</source>
            <translation>已导出到 %1（%2）。</translation>
        </message>
        <message>
            <source>The export failed: %1</source>
            <translation>导出失败：%1</translation>
        </message>
    </context>
    <context>
        <name>sb::gui::CheckpointsModel</name>
        <message>
            <source>complete</source>
            <translation>完整</translation>
        </message>
        <message>
            <source>failed</source>
            <translation>失败</translation>
        </message>
        <message>
            <source>deleted</source>
            <translation>已删除</translation>
        </message>
        <message>
            <source>verified</source>
            <translation>已校验</translation>
        </message>
        <message>
            <source>corrupt</source>
            <translation>已损坏</translation>
        </message>
        <message>
            <source>Found on disk; the run did not report it</source>
            <translation>在磁盘上找到；运行未报告它</translation>
        </message>
        <message>
            <source>full (.safetensors)</source>
            <translation>完整（.safetensors）</translation>
        </message>
        <message>
            <source>sharded</source>
            <translation>分片</translation>
        </message>
        <message>
            <source>Step</source>
            <translation>步</translation>
        </message>
        <message>
            <source>Saved</source>
            <translation>保存时间</translation>
        </message>
        <message>
            <source>Size</source>
            <translation>大小</translation>
        </message>
        <message>
            <source>World size</source>
            <translation>进程总数</translation>
        </message>
        <message>
            <source>Kind</source>
            <translation>类型</translation>
        </message>
        <message>
            <source>Status</source>
            <translation>状态</translation>
        </message>
        <message>
            <source>Folder</source>
            <translation>文件夹</translation>
        </message>
        <message>
            <source>DCP (PyTorch)</source>
            <translation>DCP（PyTorch 格式）</translation>
        </message>
    </context>
    <context>
        <name>sb::gui::CheckpointsView</name>
        <message>
            <source>Write a new folder transformers loads with from_pretrained: config.json, Hugging Face names and layout, fp32 (Llama, Mistral, Qwen2, Qwen3 and GPT-2 plans)</source>
            <translation>写入一个 transformers 可用 from_pretrained 加载的新文件夹：config.json、Hugging Face 的名称与布局，fp32（Llama、Mistral、Qwen2、Qwen3 和 GPT-2 计划）</translation>
        </message>
        <message>
            <source>Export for Hugging Face…</source>
            <translation>导出为 Hugging Face…</translation>
        </message>
        <message>
            <source>Run</source>
            <translation>运行</translation>
        </message>
        <message>
            <source>Verify</source>
            <translation>校验</translation>
        </message>
        <message>
            <source>Check every file&apos;s size and SHA-256 and every shard against the index</source>
            <translation>对照索引检查每个文件的大小和 SHA-256 以及每个分片</translation>
        </message>
        <message>
            <source>Export .safetensors…</source>
            <translation>导出 .safetensors…</translation>
        </message>
        <message>
            <source>Write the unsharded model as one .safetensors file any reader can load</source>
            <translation>将未分片的模型写成任何读取器都能加载的单个 .safetensors 文件</translation>
        </message>
        <message>
            <source>Restore as a new run…</source>
            <translation>恢复为新运行…</translation>
        </message>
        <message>
            <source>Start a new run that resumes from this checkpoint, at any world size</source>
            <translation>启动一个从此检查点继续的新运行，world size 可任意选择</translation>
        </message>
        <message>
            <source>Cancel</source>
            <translation>取消</translation>
        </message>
        <message>
            <source>No runs yet, so no checkpoints. Launch a run from the Run area first.</source>
            <translation>还没有运行，因此没有检查点。请先在“运行”区域启动一次运行。</translation>
        </message>
        <message>
            <source>No checkpoints for this run. To save some, set a checkpoint folder (and how often) in Setup ▸ Training before launching; a run then writes step-NNNNNN folders there.</source>
            <translation>此运行没有检查点。若要保存，请在启动前于“设置 ▸ 训练”中设定检查点文件夹（及保存间隔）；运行随后会在其中写入 step-NNNNNN 文件夹。</translation>
        </message>
    </context>
    <context>
        <name>sb::gui::ClusterController</name>
        <message>
            <source>Every tested host is ready.</source>
            <translation>所有已测试的主机均已就绪。</translation>
        </message>
        <message>
            <source>The SSH config for the hosts added by hand cannot be written: %1</source>
            <translation>无法写入手动添加主机的 SSH 配置：%1</translation>
        </message>
        <message numerus="yes">
            <source>Testing %n host(s)…</source>
            <translation>
                <numerusform>正在测试 %n 台主机…</numerusform>
            </translation>
        </message>
        <message numerus="yes">
            <source>%n host(s) failed the test; see the details column.</source>
            <translation>
                <numerusform>%n 台主机未通过测试；请查看“详情”列。</numerusform>
            </translation>
        </message>
        <message>
            <source>A test checks what the Run area&apos;s engine needs on each host: shardbench-core, by a one-step test run.</source>
            <translation>测试会检查“运行”区域所选引擎在每台主机上所需的条件：shardbench-core，通过一次单步测试运行。</translation>
        </message>
        <message>
            <source>A test checks what the Run area&apos;s engine needs on each host: %1 with PyTorch 2.6 or newer (fully_shard).</source>
            <translation>测试会检查“运行”区域所选引擎在每台主机上所需的条件：%1 带 PyTorch 2.6 或更新版本（fully_shard）。</translation>
        </message>
        <message>
            <source>A test checks what the Run area&apos;s engine needs on each host: %1 with PyTorch 2.6 or newer (fully_shard), CUDA and NCCL (the plan runs on CUDA).</source>
            <translation>测试会检查“运行”区域所选引擎在每台主机上所需的条件：%1 带 PyTorch 2.6 或更新版本（fully_shard）、CUDA 和 NCCL（该计划在 CUDA 上运行）。</translation>
        </message>
    </context>
    <context>
        <name>sb::gui::ClusterView</name>
        <message>
            <source>Add host…</source>
            <translation>添加主机…</translation>
        </message>
        <message>
            <source>Edit…</source>
            <translation>编辑…</translation>
        </message>
        <message>
            <source>Remove</source>
            <translation>移除</translation>
        </message>
        <message>
            <source>Test selected</source>
            <translation>测试所选</translation>
        </message>
        <message>
            <source>Test all</source>
            <translation>全部测试</translation>
        </message>
        <message>
            <source>Cancel</source>
            <translation>取消</translation>
        </message>
        <message>
            <source>%v of %m hosts tested</source>
            <translation>已测试 %v / %m 台主机</translation>
        </message>
        <message>
            <source>SSH and remote hosts</source>
            <translation>SSH 与远程主机</translation>
        </message>
        <message>
            <source>SSH config file</source>
            <translation>SSH 配置文件</translation>
        </message>
        <message>
            <source>known_hosts file</source>
            <translation>known_hosts 文件</translation>
        </message>
        <message>
            <source>shardbench-core on the hosts</source>
            <translation>主机上的 shardbench-core</translation>
        </message>
        <message>
            <source>Run folder on the hosts</source>
            <translation>主机上的运行文件夹</translation>
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
            <translation>路径，或可在非交互式登录的 PATH 中找到的名称</translation>
        </message>
        <message>
            <source>Where plans are copied on each host (relative to the home folder)</source>
            <translation>计划在每台主机上的复制位置（相对于主目录）</translation>
        </message>
    </context>
    <context>
        <name>sb::gui::CompareView</name>
        <message>
            <source>%1 (validation)</source>
            <translation>%1（验证）</translation>
        </message>
        <message>
            <source>run %1</source>
            <translation>运行 %1</translation>
        </message>
        <message>
            <source>run %1 (%2)</source>
            <translation>运行 %1（%2）</translation>
        </message>
        <message>
            <source>Align</source>
            <translation>对齐</translation>
        </message>
        <message>
            <source>by step</source>
            <translation>按步</translation>
        </message>
        <message>
            <source>by time since the first step</source>
            <translation>按自第一步起的时间</translation>
        </message>
        <message>
            <source>Step</source>
            <translation>步</translation>
        </message>
        <message>
            <source>Seconds</source>
            <translation>秒</translation>
        </message>
        <message>
            <source>Loss</source>
            <translation>损失</translation>
        </message>
        <message>
            <source>Throughput</source>
            <translation>吞吐量</translation>
        </message>
        <message>
            <source>Tokens/s</source>
            <translation>词元/秒</translation>
        </message>
        <message>
            <source>Plan differences</source>
            <translation>计划差异</translation>
        </message>
        <message>
            <source>The plans are the same</source>
            <translation>计划相同</translation>
        </message>
        <message numerus="yes">
            <source>Plan differences: %n item(s)</source>
            <translation>
                <numerusform>计划差异：%n 项</numerusform>
            </translation>
        </message>
        <message>
            <source>The plan of %1</source>
            <translation>%1 的计划</translation>
        </message>
        <message>
            <source>Smoothing</source>
            <translation>平滑</translation>
        </message>
        <message>
            <source>Exponential moving average of each run's loss and throughput, as TensorBoard smooths: 0 is none</source>
            <translation>对每次运行的损失和吞吐量取指数移动平均，与 TensorBoard 的平滑方式相同：0 表示不平滑</translation>
        </message>
        <message>
            <source>by wall-clock time</source>
            <translation>按实际时间</translation>
        </message>
        <message>
            <source>Time</source>
            <translation>时间</translation>
        </message>
        <message>
            <source>Loss and throughput</source>
            <translation>损失与吞吐量</translation>
        </message>
        <message>
            <source>Memory per rank</source>
            <translation>每个 rank 的内存</translation>
        </message>
    </context>
    <context>
        <name>sb::gui::ComparedMemoryChart</name>
        <message>
            <source> (first %1 ranks; the table lists all)</source>
            <translation>（前 %1 个 rank；表格列出全部）</translation>
        </message>
        <message>
            <source>%1 estimated</source>
            <translation>%1 估算</translation>
        </message>
        <message>
            <source>%1 estimated; it reported no memory</source>
            <translation>%1 估算；未报告内存</translation>
        </message>
        <message>
            <source>%1 measured</source>
            <translation>%1 实测</translation>
        </message>
        <message>
            <source>%1 measured (%2)</source>
            <translation>%1 实测（%2）</translation>
        </message>
        <message>
            <source>%1, rank %2</source>
            <translation>%1，rank %2</translation>
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
            <translation>每个 rank 的峰值内存：实测（实色）与各运行计划的估算（浅色）对比</translation>
        </message>
        <message>
            <source>Rank</source>
            <translation>Rank</translation>
        </message>
        <message>
            <source>difference: %1</source>
            <translation>差异：%1</translation>
        </message>
        <message>
            <source>estimated: %1</source>
            <translation>估算：%1</translation>
        </message>
        <message>
            <source>measured: %1</source>
            <translation>实测：%1</translation>
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
            <translation>差异</translation>
        </message>
        <message>
            <source>Peak estimated</source>
            <translation>峰值估算</translation>
        </message>
        <message>
            <source>Peak measured</source>
            <translation>峰值实测</translation>
        </message>
        <message>
            <source>Rank</source>
            <translation>Rank</translation>
        </message>
        <message>
            <source>Run</source>
            <translation>运行</translation>
        </message>
        <message>
            <source>The measured peak over (+) or under (−) the estimate for this run&apos;s plan</source>
            <translation>实测峰值高于（+）或低于（−）此运行计划的估算</translation>
        </message>
        <message>
            <source>The plan this run recorded does not validate, so it has no estimate</source>
            <translation>此运行记录的计划未通过验证，因此没有估算</translation>
        </message>
        <message>
            <source>This rank of the run reported no memory</source>
            <translation>该运行的此 rank 未报告内存</translation>
        </message>
        <message>
            <source>no estimate</source>
            <translation>无估算</translation>
        </message>
        <message>
            <source>not reported</source>
            <translation>未报告</translation>
        </message>
    </context>
    <context>
        <name>sb::gui::ConnectionText</name>
        <message>
            <source>this machine</source>
            <translation>本机</translation>
        </message>
        <message>
            <source>%1: the test was cancelled</source>
            <translation>%1：测试已取消</translation>
        </message>
        <message>
            <source>%1 is not reachable: %2</source>
            <translation>无法连接 %1：%2</translation>
        </message>
        <message>
            <source>%1: its unknown host key %2 was refused, so shardbench did not log in</source>
            <translation>%1：其未知主机密钥 %2 已被拒绝，因此 shardbench 未登录</translation>
        </message>
        <message>
            <source>%1: the host key has CHANGED (it is now %2), so the connection was refused. Someone may be intercepting it, or the host was reinstalled. If the change is expected, remove the old key from known_hosts (ssh-keygen -R) and test again.</source>
            <translation>%1：主机密钥已更改（现在为 %2），因此连接被拒绝。可能有人在拦截连接，或主机已重装。如果此更改在预期之内，请从 known_hosts 中删除旧密钥（ssh-keygen -R）后重新测试。</translation>
        </message>
        <message>
            <source>%1 offered a %2 key, but known_hosts holds a key of another type for it, so the connection was refused: this can mean someone is intercepting it.</source>
            <translation>%1 提供了 %2 密钥，但 known_hosts 中为其保存的是另一种类型的密钥，因此连接被拒绝：这可能意味着有人在拦截连接。</translation>
        </message>
        <message>
            <source>%1: login refused, no key was accepted. Install your public key on the host; a key with a passphrase must be loaded into ssh-agent. (%2)</source>
            <translation>%1：登录被拒绝，没有密钥被接受。请在主机上安装您的公钥；带口令的密钥必须加载到 ssh-agent 中。（%2）</translation>
        </message>
        <message>
            <source>%1: shardbench-core was not found (%2)</source>
            <translation>%1：未找到 shardbench-core（%2）</translation>
        </message>
        <message>
            <source>%1: shardbench-core did not start (exit code %2)</source>
            <translation>%1：shardbench-core 未能启动（退出码 %2）</translation>
        </message>
        <message>
            <source>%1: shardbench-core did not start: %2</source>
            <translation>%1：shardbench-core 未能启动：%2</translation>
        </message>
        <message>
            <source>%1: shardbench-core did not finish its test run in time</source>
            <translation>%1：shardbench-core 未能及时完成测试运行</translation>
        </message>
        <message>
            <source>%1: %2</source>
            <translation>%1：%2</translation>
        </message>
        <message>
            <source>none (no nvidia-smi)</source>
            <translation>无（没有 nvidia-smi）</translation>
        </message>
        <message>
            <source>none (nvidia-smi sees no GPU)</source>
            <translation>无（nvidia-smi 未检测到 GPU）</translation>
        </message>
        <message numerus="yes">
            <source>%n × %1</source>
            <translation>
                <numerusform>%n × %1</numerusform>
            </translation>
        </message>
        <message>
            <source>%1 (LibTorch %2, %3)</source>
            <translation>%1（LibTorch %2，%3）</translation>
        </message>
        <message>
            <source>reachable at %1:%2</source>
            <translation>可通过 %1:%2 访问</translation>
        </message>
        <message>
            <source>logged in as %1 at %2:%3</source>
            <translation>以 %1 身份登录 %2:%3</translation>
        </message>
        <message>
            <source>GPUs: %1</source>
            <translation>GPU：%1</translation>
        </message>
        <message>
            <source>shardbench-core %1</source>
            <translation>shardbench-core %1</translation>
        </message>
        <message>
            <source>%1 s</source>
            <translation>%1 秒</translation>
        </message>
        <message>
            <source>%1: Python was not found (%2)</source>
            <translation>%1：未找到 Python（%2）</translation>
        </message>
        <message>
            <source>%1: %2 cannot import PyTorch (%3)</source>
            <translation>%1：%2 无法导入 PyTorch（%3）</translation>
        </message>
        <message>
            <source>%1: PyTorch %2 has no fully_shard; the PyTorch engine needs PyTorch 2.6 or newer</source>
            <translation>%1：PyTorch %2 没有 fully_shard；PyTorch 引擎需要 PyTorch 2.6 或更新版本</translation>
        </message>
        <message>
            <source>%1: the plan runs on CUDA but PyTorch %2 there has %3</source>
            <translation>%1：计划在 CUDA 上运行，但该处的 PyTorch %2 %3</translation>
        </message>
        <message>
            <source>no NCCL</source>
            <translation>没有 NCCL</translation>
        </message>
        <message>
            <source>no CUDA</source>
            <translation>没有 CUDA</translation>
        </message>
        <message>
            <source>CUDA and NCCL</source>
            <translation>CUDA 和 NCCL</translation>
        </message>
        <message>
            <source>Python %1, PyTorch %2 (%3)</source>
            <translation>Python %1，PyTorch %2（%3）</translation>
        </message>
    </context>
    <context>
        <name>sb::gui::DevicePresets</name>
        <message>
            <source>CPU RAM</source>
            <translation>CPU 内存</translation>
        </message>
        <message>
            <source>Custom GPU</source>
            <translation>自定义 GPU</translation>
        </message>
    </context>
    <context>
        <name>sb::gui::FailureText</name>
        <message>
            <source>rank %1 on %2 exited with code %3</source>
            <translation>%2 上的 rank %1 以代码 %3 退出</translation>
        </message>
        <message>
            <source>rank %1 on %2 exited with code 1 (runtime failure)</source>
            <translation>%2 上的 rank %1 以代码 1 退出（运行时失败）</translation>
        </message>
        <message>
            <source>rank %1 on %2 exited with code 2 (bad input)</source>
            <translation>%2 上的 rank %1 以代码 2 退出（输入无效）</translation>
        </message>
        <message>
            <source>rank %1 on %2 exited with code 3 (rendezvous failed)</source>
            <translation>%2 上的 rank %1 以代码 3 退出（会合失败）</translation>
        </message>
        <message>
            <source>rank %1 on %2 exited with code 126 (the core could not be executed)</source>
            <translation>%2 上的 rank %1 以代码 126 退出（无法执行核心程序）</translation>
        </message>
        <message>
            <source>rank %1 on %2 exited with code 127 (the core was not found)</source>
            <translation>%2 上的 rank %1 以代码 127 退出（找不到核心程序）</translation>
        </message>
        <message>
            <source>rank %1 on %2 was killed by signal %3 (%4)</source>
            <translation>%2 上的 rank %1 被信号 %3（%4）终止</translation>
        </message>
        <message>
            <source>rank %1 on %2 was stopped (%3)</source>
            <translation>%2 上的 rank %1 已被停止（%3）</translation>
        </message>
        <message>
            <source>rank %1 on %2 was lost: %3</source>
            <translation>%2 上的 rank %1 已丢失：%3</translation>
        </message>
        <message>
            <source>rank %1 on %2 could not be started: %3</source>
            <translation>%2 上的 rank %1 无法启动：%3</translation>
        </message>
        <message>
            <source>launch failed: %1</source>
            <translation>启动失败：%1</translation>
        </message>
        <message>
            <source>the ranks stopped without finishing</source>
            <translation>各 rank 未完成即已停止</translation>
        </message>
        <message>
            <source>the launcher (pid %1 on %2) is gone; last heard from at %3</source>
            <translation>启动器（%2 上的 pid %1）已不存在；最后一次消息于 %3</translation>
        </message>
        <message>
            <source>the launcher (pid %1 on %2) is gone; last heard from at an unknown time</source>
            <translation>启动器（%2 上的 pid %1）已不存在；最后一次消息时间未知</translation>
        </message>
        <message>
            <source>the run could not start: %1</source>
            <translation>运行无法启动：%1</translation>
        </message>
        <message>
            <source>rank %1 on %2 lost its connection (ssh exited with 255)</source>
            <translation>%2 上的 rank %1 断开了连接（ssh 以 255 退出）</translation>
        </message>
        <message>
            <source>rank %1 on %2 could not be reached (ssh exited with 255)</source>
            <translation>无法连接 %2 上的 rank %1（ssh 以 255 退出）</translation>
        </message>
        <message>
            <source>stopped on request</source>
            <translation>已按请求停止</translation>
        </message>
        <message>
            <source>cancelled by the user</source>
            <translation>已被用户取消</translation>
        </message>
        <message>
            <source>cancelled by the user (%1)</source>
            <translation>已被用户取消（%1）</translation>
        </message>
        <message>
            <source>cancelled from the workbench</source>
            <translation>已从工作台取消</translation>
        </message>
        <message>
            <source>Slurm ended the job (SIGTERM: its time limit, an scancel of the job, a preemption)</source>
            <translation>Slurm 结束了该作业（SIGTERM：时间限制、对该作业执行 scancel 或被抢占）</translation>
        </message>
        <message>
            <source>1 checkpoint failed (%1)</source>
            <translation>1 个检查点失败（%1）</translation>
        </message>
        <message>
            <source>%1 checkpoints failed (%2)</source>
            <translation>%1 个检查点失败（%2）</translation>
        </message>
        <message>
            <source>1 line lost</source>
            <translation>丢失 1 行</translation>
        </message>
        <message>
            <source>%1 lines lost</source>
            <translation>丢失 %1 行</translation>
        </message>
        <message>
            <source>the supervisor on %1 is gone (last heard from at %2)</source>
            <translation>%1 上的监督进程已不存在（最后一次消息于 %2）</translation>
        </message>
        <message>
            <source>queued: Slurm job %1 is %2</source>
            <translation>排队中：Slurm 作业 %1 的状态为 %2</translation>
        </message>
        <message>
            <source>Slurm job %1 ended %2 and the supervisor recorded no final state (see %3/slurm-%1.out)</source>
            <translation>Slurm 作业 %1 以 %2 结束，监督进程未记录最终状态（见 %3/slurm-%1.out）</translation>
        </message>
        <message>
            <source>Slurm job %1 ended %2 before the supervisor started</source>
            <translation>Slurm 作业 %1 在监督进程启动前以 %2 结束</translation>
        </message>
        <message>
            <source>Slurm job %1 is unknown to Slurm (squeue and sacct) and the supervisor recorded no final state (see %2/slurm-%1.out)</source>
            <translation>Slurm 不知道作业 %1（squeue 和 sacct），监督进程未记录最终状态（见 %2/slurm-%1.out）</translation>
        </message>
        <message>
            <source>Slurm job %1 is unknown to Slurm (squeue and sacct) before the supervisor started</source>
            <translation>Slurm 作业 %1 在监督进程启动前已不为 Slurm 所知（squeue 和 sacct）</translation>
        </message>
        <message numerus="yes">
            <source> (after %n restart(s))</source>
            <translation>
                <numerusform>（%n 次重启之后）</numerusform>
            </translation>
        </message>
    </context>
    <context>
        <name>sb::gui::FileController</name>
        <message>
            <source>New plan for %1; the launch starts from its weights</source>
            <translation>已为 %1 新建计划；启动时将从其权重开始</translation>
        </message>
        <message>
            <source>New plan for %1 (no weights in the folder)</source>
            <translation>已为 %1 新建计划（文件夹中没有权重）</translation>
        </message>
        <message>
            <source>The weights in %1 do not match its config.json: %2</source>
            <translation>%1 中的权重与其 config.json 不符：%2</translation>
        </message>
        <message>
            <source>New plan from a Hugging Face model folder</source>
            <translation>从 Hugging Face 模型文件夹新建计划</translation>
        </message>
        <message>
            <source>Unsaved changes</source>
            <translation>未保存的更改</translation>
        </message>
        <message>
            <source>The plan has unsaved changes. Save them first?</source>
            <translation>计划有未保存的更改。是否先保存？</translation>
        </message>
        <message>
            <source>Save</source>
            <translation>保存</translation>
        </message>
        <message>
            <source>Discard</source>
            <translation>放弃</translation>
        </message>
        <message>
            <source>Cancel</source>
            <translation>取消</translation>
        </message>
        <message>
            <source>New plan</source>
            <translation>新计划</translation>
        </message>
        <message>
            <source>Open plan</source>
            <translation>打开计划</translation>
        </message>
        <message>
            <source>shardbench plans (*.json);;All files (*)</source>
            <translation>shardbench 计划 (*.json);;所有文件 (*)</translation>
        </message>
        <message>
            <source>%1 cannot be opened as a plan:
%2</source>
            <translation>无法将 %1 作为计划打开：
%2</translation>
        </message>
        <message>
            <source>Opened %1</source>
            <translation>已打开 %1</translation>
        </message>
        <message>
            <source>Save plan</source>
            <translation>保存计划</translation>
        </message>
        <message>
            <source>shardbench plans (*.json)</source>
            <translation>shardbench 计划 (*.json)</translation>
        </message>
        <message>
            <source>The plan was not saved: %1</source>
            <translation>计划未保存：%1</translation>
        </message>
        <message>
            <source>Saved %1</source>
            <translation>已保存 %1</translation>
        </message>
        <message>
            <source>Import module tree</source>
            <translation>导入模块树</translation>
        </message>
        <message>
            <source>Module trees (*.json);;All files (*)</source>
            <translation>模块树 (*.json);;所有文件 (*)</translation>
        </message>
        <message>
            <source>Cannot read %1: %2</source>
            <translation>无法读取 %1：%2</translation>
        </message>
        <message>
            <source>%1 is not valid JSON: %2</source>
            <translation>%1 不是有效的 JSON：%2</translation>
        </message>
        <message>
            <source>%1 is not a module tree:
%2</source>
            <translation>%1 不是模块树：
%2</translation>
        </message>
        <message numerus="yes">
            <source>Imported %n module(s) from %1</source>
            <translation>
                <numerusform>已从 %1 导入 %n 个模块</numerusform>
            </translation>
        </message>
        <message>
            <source>Export FSDP2 script</source>
            <translation>导出 FSDP2 脚本</translation>
        </message>
        <message>
            <source>The plan has errors; fix them before exporting a training script.</source>
            <translation>计划存在错误；请先修复再导出训练脚本。</translation>
        </message>
        <message>
            <source>Python scripts (*.py)</source>
            <translation>Python 脚本 (*.py)</translation>
        </message>
        <message>
            <source>Wrote %1</source>
            <translation>已写入 %1</translation>
        </message>
        <message>
            <source>Export charts as PNG</source>
            <translation>将图表导出为 PNG</translation>
        </message>
        <message>
            <source>PNG images (*.png)</source>
            <translation>PNG 图像 (*.png)</translation>
        </message>
        <message>
            <source>Export charts as SVG</source>
            <translation>将图表导出为 SVG</translation>
        </message>
        <message>
            <source>SVG drawings (*.svg)</source>
            <translation>SVG 图形 (*.svg)</translation>
        </message>
        <message>
            <source>Export memory breakdown</source>
            <translation>导出内存明细</translation>
        </message>
        <message>
            <source>CSV files (*.csv)</source>
            <translation>CSV 文件 (*.csv)</translation>
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
            <translation>标量</translation>
        </message>
    </context>
    <context>
        <name>sb::gui::HostDialog</name>
        <message>
            <source>Add a host</source>
            <translation>添加主机</translation>
        </message>
        <message>
            <source>Edit host %1</source>
            <translation>编辑主机 %1</translation>
        </message>
        <message>
            <source>22 (default)</source>
            <translation>22（默认）</translation>
        </message>
        <message>
            <source>the plan&apos;s processes per node</source>
            <translation>计划中的每节点进程数</translation>
        </message>
        <message>
            <source>gpu-node-1</source>
            <translation>gpu-node-1</translation>
        </message>
        <message>
            <source>the name itself, or 10.0.0.11</source>
            <translation>名称本身，或 10.0.0.11</translation>
        </message>
        <message>
            <source>your user name</source>
            <translation>您的用户名</translation>
        </message>
        <message>
            <source>ssh-agent and ~/.ssh/id_*</source>
            <translation>ssh-agent 与 ~/.ssh/id_*</translation>
        </message>
        <message>
            <source>Browse…</source>
            <translation>浏览…</translation>
        </message>
        <message>
            <source>Private key file</source>
            <translation>私钥文件</translation>
        </message>
        <message>
            <source>Name</source>
            <translation>名称</translation>
        </message>
        <message>
            <source>Address</source>
            <translation>地址</translation>
        </message>
        <message>
            <source>User</source>
            <translation>用户</translation>
        </message>
        <message>
            <source>Port</source>
            <translation>端口</translation>
        </message>
        <message>
            <source>Key file</source>
            <translation>密钥文件</translation>
        </message>
        <message>
            <source>Ranks (GPUs)</source>
            <translation>rank 数（GPU）</translation>
        </message>
        <message>
            <source>shardbench logs in with keys only (ssh-agent or the key file); it never asks for or stores a password. A key with a passphrase must be loaded into ssh-agent.</source>
            <translation>shardbench 只使用密钥登录（ssh-agent 或密钥文件）；从不询问或保存密码。带口令的密钥必须加载到 ssh-agent 中。</translation>
        </message>
        <message>
            <source>The name cannot be used: %1</source>
            <translation>此名称不可用：%1</translation>
        </message>
        <message>
            <source>no user@ here; use the User field</source>
            <translation>此处不能有 user@；请使用“用户”字段</translation>
        </message>
        <message>
            <source>The address cannot be used: %1</source>
            <translation>此地址不可用：%1</translation>
        </message>
        <message>
            <source>The user name cannot be used: %1</source>
            <translation>此用户名不可用：%1</translation>
        </message>
        <message>
            <source>it contains @</source>
            <translation>其中包含 @</translation>
        </message>
        <message>
            <source>There is already a host named %1.</source>
            <translation>已存在名为 %1 的主机。</translation>
        </message>
    </context>
    <context>
        <name>sb::gui::HostKeyDialog</name>
        <message>
            <source>Trust and remember</source>
            <translation>信任并记住</translation>
        </message>
        <message>
            <source>Trust this time</source>
            <translation>本次信任</translation>
        </message>
        <message>
            <source>Refuse</source>
            <translation>拒绝</translation>
        </message>
        <message>
            <source>Unknown host key</source>
            <translation>未知主机密钥</translation>
        </message>
        <message>
            <source>&lt;b&gt;%1&lt;/b&gt; is not in your known hosts. Before you trust it, compare its fingerprint with the one the host&apos;s administrator gives you (on the host: &lt;tt&gt;ssh-keygen -lf /etc/ssh/ssh_host_ed25519_key.pub&lt;/tt&gt;).</source>
            <translation>&lt;b&gt;%1&lt;/b&gt; 不在您的已知主机中。在信任它之前，请将其指纹与主机管理员提供的指纹进行比对（在主机上执行：&lt;tt&gt;ssh-keygen -lf /etc/ssh/ssh_host_ed25519_key.pub&lt;/tt&gt;）。</translation>
        </message>
        <message>
            <source>Address</source>
            <translation>地址</translation>
        </message>
        <message>
            <source>Fingerprint</source>
            <translation>指纹</translation>
        </message>
        <message>
            <source>Remembered in</source>
            <translation>记录于</translation>
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
            <translation>本机</translation>
        </message>
        <message>
            <source>plan&apos;s</source>
            <translation>按计划</translation>
        </message>
        <message>
            <source>local</source>
            <translation>本地</translation>
        </message>
        <message>
            <source>added by hand</source>
            <translation>手动添加</translation>
        </message>
        <message>
            <source>SSH config</source>
            <translation>SSH 配置</translation>
        </message>
        <message>
            <source>testing…</source>
            <translation>测试中…</translation>
        </message>
        <message>
            <source>yes</source>
            <translation>是</translation>
        </message>
        <message>
            <source>no</source>
            <translation>否</translation>
        </message>
        <message>
            <source>as %1</source>
            <translation>用户 %1</translation>
        </message>
        <message>
            <source>key refused</source>
            <translation>密钥被拒绝</translation>
        </message>
        <message>
            <source>key changed</source>
            <translation>密钥已更改</translation>
        </message>
        <message>
            <source>not found</source>
            <translation>未找到</translation>
        </message>
        <message>
            <source>not working</source>
            <translation>无法运行</translation>
        </message>
        <message>
            <source>Host</source>
            <translation>主机</translation>
        </message>
        <message>
            <source>Address</source>
            <translation>地址</translation>
        </message>
        <message>
            <source>User</source>
            <translation>用户</translation>
        </message>
        <message>
            <source>Port</source>
            <translation>端口</translation>
        </message>
        <message>
            <source>Key file</source>
            <translation>密钥文件</translation>
        </message>
        <message>
            <source>Ranks (GPUs)</source>
            <translation>rank 数（GPU）</translation>
        </message>
        <message>
            <source>From</source>
            <translation>来源</translation>
        </message>
        <message>
            <source>Reachable</source>
            <translation>可连接</translation>
        </message>
        <message>
            <source>Logged in</source>
            <translation>已登录</translation>
        </message>
        <message>
            <source>GPUs seen</source>
            <translation>检测到的 GPU</translation>
        </message>
        <message>
            <source>Details</source>
            <translation>详情</translation>
        </message>
        <message>
            <source>Engine</source>
            <translation>引擎</translation>
        </message>
        <message>
            <source>no PyTorch</source>
            <translation>没有 PyTorch</translation>
        </message>
        <message>
            <source>PyTorch %1: too old</source>
            <translation>PyTorch %1：版本过旧</translation>
        </message>
        <message>
            <source>PyTorch %1: no NCCL</source>
            <translation>PyTorch %1：没有 NCCL</translation>
        </message>
        <message>
            <source>PyTorch %1: no CUDA</source>
            <translation>PyTorch %1：没有 CUDA</translation>
        </message>
    </context>
    <context>
        <name>sb::gui::Labels</name>
        <message>
            <source>Sharded parameters</source>
            <translation>分片参数</translation>
        </message>
        <message>
            <source>Sharded gradients</source>
            <translation>分片梯度</translation>
        </message>
        <message>
            <source>Optimizer state</source>
            <translation>优化器状态</translation>
        </message>
        <message>
            <source>Unsharded parameters</source>
            <translation>未分片参数</translation>
        </message>
        <message>
            <source>Communication buffers</source>
            <translation>通信缓冲区</translation>
        </message>
        <message>
            <source>Unsharded gradients</source>
            <translation>未分片梯度</translation>
        </message>
        <message>
            <source>Activations</source>
            <translation>激活值</translation>
        </message>
        <message>
            <source>Logits and loss</source>
            <translation>Logits 与损失</translation>
        </message>
        <message>
            <source>Other</source>
            <translation>其他</translation>
        </message>
        <message>
            <source>Gathered parameters in param_dtype: computing, kept, prefetched, 1/k copies</source>
            <translation>以 param_dtype 聚合的参数：计算中、保留、预取及 1/k 副本</translation>
        </message>
        <message>
            <source>All-gather outputs and reduce-scatter buffers</source>
            <translation>All-gather 输出与 reduce-scatter 缓冲区</translation>
        </message>
        <message>
            <source>Full-size gradients before reduce-scatter</source>
            <translation>reduce-scatter 之前的完整梯度</translation>
        </message>
        <message>
            <source>Tensors saved for backward and backward workspace</source>
            <translation>为反向传播保存的张量及反向工作区</translation>
        </message>
        <message>
            <source>Logits, log-softmax and their gradients</source>
            <translation>Logits、log-softmax 及其梯度</translation>
        </message>
        <message>
            <source>Input tokens and optimizer temporaries</source>
            <translation>输入 token 与优化器临时数据</translation>
        </message>
        <message>
            <source>FSDP2 tutorial Transformer (editable sizes)</source>
            <translation>FSDP2 教程中的 Transformer（尺寸可编辑）</translation>
        </message>
        <message>
            <source>GPT-2 small, 12 layers, 768 wide</source>
            <translation>GPT-2 small，12 层，宽 768</translation>
        </message>
        <message>
            <source>GPT-2 medium, 24 layers, 1024 wide</source>
            <translation>GPT-2 medium，24 层，宽 1024</translation>
        </message>
        <message>
            <source>GPT-2 large, 36 layers, 1280 wide</source>
            <translation>GPT-2 large，36 层，宽 1280</translation>
        </message>
        <message>
            <source>GPT-2 XL, 48 layers, 1600 wide</source>
            <translation>GPT-2 XL，48 层，宽 1600</translation>
        </message>
        <message>
            <source>Llama-3 8B, 32 layers, 4096 wide, GQA 32/8</source>
            <translation>Llama-3 8B，32 层，宽 4096，GQA 32/8</translation>
        </message>
        <message>
            <source>Llama-3 70B, 80 layers, 8192 wide, GQA 64/8</source>
            <translation>Llama-3 70B，80 层，宽 8192，GQA 64/8</translation>
        </message>
        <message>
            <source>Llama-3 405B, 126 layers, 16384 wide, GQA 128/8</source>
            <translation>Llama-3 405B，126 层，宽 16384，GQA 128/8</translation>
        </message>
        <message>
            <source>Llama 3.1 8B (Llama-3 8B with RoPE scaling, 128k positions)</source>
            <translation>Llama 3.1 8B（带 RoPE 缩放的 Llama-3 8B，128k 位置）</translation>
        </message>
        <message>
            <source>Llama 3.1 and 3.3 70B (Llama-3 70B with RoPE scaling, 128k positions)</source>
            <translation>Llama 3.1 和 3.3 70B（带 RoPE 缩放的 Llama-3 70B，128k 位置）</translation>
        </message>
        <message>
            <source>Llama 3.1 405B, 126 layers, 16384 wide, RoPE scaling</source>
            <translation>Llama 3.1 405B，126 层，宽 16384，RoPE 缩放</translation>
        </message>
        <message>
            <source>Llama 3.2 1B, 16 layers, 2048 wide, GQA 32/8, tied embeddings</source>
            <translation>Llama 3.2 1B，16 层，宽 2048，GQA 32/8，共享嵌入</translation>
        </message>
        <message>
            <source>Llama 3.2 3B, 28 layers, 3072 wide, GQA 24/8, tied embeddings</source>
            <translation>Llama 3.2 3B，28 层，宽 3072，GQA 24/8，共享嵌入</translation>
        </message>
        <message>
            <source>Mistral 7B v0.3, 32 layers, 4096 wide, GQA 32/8</source>
            <translation>Mistral 7B v0.3，32 层，宽 4096，GQA 32/8</translation>
        </message>
        <message>
            <source>Qwen2.5 0.5B, 24 layers, 896 wide, GQA 14/2, q/k/v bias, tied embeddings</source>
            <translation>Qwen2.5 0.5B，24 层，宽 896，GQA 14/2，q/k/v 偏置，绑定嵌入</translation>
        </message>
        <message>
            <source>Qwen2.5 1.5B, 28 layers, 1536 wide, GQA 12/2, q/k/v bias, tied embeddings</source>
            <translation>Qwen2.5 1.5B，28 层，宽 1536，GQA 12/2，q/k/v 偏置，绑定嵌入</translation>
        </message>
        <message>
            <source>Qwen2.5 3B, 36 layers, 2048 wide, GQA 16/2, q/k/v bias, tied embeddings</source>
            <translation>Qwen2.5 3B，36 层，宽 2048，GQA 16/2，q/k/v 偏置，绑定嵌入</translation>
        </message>
        <message>
            <source>Qwen2.5 7B, 28 layers, 3584 wide, GQA 28/4, q/k/v bias</source>
            <translation>Qwen2.5 7B，28 层，宽 3584，GQA 28/4，q/k/v 偏置</translation>
        </message>
        <message>
            <source>Qwen2.5 14B, 48 layers, 5120 wide, GQA 40/8, q/k/v bias</source>
            <translation>Qwen2.5 14B，48 层，宽 5120，GQA 40/8，q/k/v 偏置</translation>
        </message>
        <message>
            <source>Qwen2.5 32B, 64 layers, 5120 wide, GQA 40/8, q/k/v bias</source>
            <translation>Qwen2.5 32B，64 层，宽 5120，GQA 40/8，q/k/v 偏置</translation>
        </message>
        <message>
            <source>Qwen2.5 72B, 80 layers, 8192 wide, GQA 64/8, q/k/v bias</source>
            <translation>Qwen2.5 72B，80 层，宽 8192，GQA 64/8，q/k/v 偏置</translation>
        </message>
        <message>
            <source>Qwen3 0.6B, 28 layers, 1024 wide, GQA 16/8, q/k norms, tied embeddings</source>
            <translation>Qwen3 0.6B，28 层，宽 1024，GQA 16/8，q/k 归一化，绑定嵌入</translation>
        </message>
        <message>
            <source>Qwen3 1.7B, 28 layers, 2048 wide, GQA 16/8, q/k norms, tied embeddings</source>
            <translation>Qwen3 1.7B，28 层，宽 2048，GQA 16/8，q/k 归一化，绑定嵌入</translation>
        </message>
        <message>
            <source>Qwen3 4B, 36 layers, 2560 wide, GQA 32/8, q/k norms, tied embeddings</source>
            <translation>Qwen3 4B，36 层，宽 2560，GQA 32/8，q/k 归一化，绑定嵌入</translation>
        </message>
        <message>
            <source>Qwen3 8B, 36 layers, 4096 wide, GQA 32/8, q/k norms</source>
            <translation>Qwen3 8B，36 层，宽 4096，GQA 32/8，q/k 归一化</translation>
        </message>
        <message>
            <source>Qwen3 14B, 40 layers, 5120 wide, GQA 40/8, q/k norms</source>
            <translation>Qwen3 14B，40 层，宽 5120，GQA 40/8，q/k 归一化</translation>
        </message>
        <message>
            <source>Qwen3 32B, 64 layers, 5120 wide, GQA 64/8, q/k norms</source>
            <translation>Qwen3 32B，64 层，宽 5120，GQA 64/8，q/k 归一化</translation>
        </message>
        <message>
            <source>Imported module tree</source>
            <translation>导入的模块树</translation>
        </message>
        <message>
            <source>Tutorial Transformer</source>
            <translation>教程 Transformer</translation>
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
            <translation>已导入</translation>
        </message>
        <message>
            <source>default</source>
            <translation>默认</translation>
        </message>
        <message>
            <source>k = %1</source>
            <translation>k = %1</translation>
        </message>
        <message>
            <source>Dim-0 shards of the parameters (padded), unless offloaded</source>
            <translation>参数沿第 0 维的分片（含填充），除非已卸载</translation>
        </message>
        <message>
            <source>Sharded gradients, in the parameters&apos; dtype</source>
            <translation>分片梯度，使用参数的数据类型</translation>
        </message>
        <message>
            <source>AdamW exp_avg and exp_avg_sq, in the parameters&apos; dtype</source>
            <translation>AdamW 的 exp_avg 与 exp_avg_sq，使用参数的数据类型</translation>
        </message>
    </context>
    <context>
        <name>sb::gui::GoingRunsBar</name>
        <message>
            <source>Show in Runs</source>
            <translation>在运行记录中显示</translation>
        </message>
        <message>
            <source>Attach</source>
            <translation>附加</translation>
        </message>
        <message>
            <source>Attach to run %1</source>
            <translation>附加到运行 %1</translation>
        </message>
        <message>
            <source>this machine</source>
            <translation>本机</translation>
        </message>
        <message>
            <source>Run %1, detached on %2, was still going when last heard from.</source>
            <translation>运行 %1 在 %2 上分离运行，最后一次收到消息时仍在进行。</translation>
        </message>
        <message>
            <source>Run %1 (%2), detached on %3, was still going when last heard from.</source>
            <translation>运行 %1（%2）在 %3 上分离运行，最后一次收到消息时仍在进行。</translation>
        </message>
        <message numerus="yes">
            <source>%n detached run(s) were still going when last heard from: %1.</source>
            <translation>
                <numerusform>%n 个分离运行在最后一次收到消息时仍在进行：%1。</numerusform>
            </translation>
        </message>
    </context>
    <context>
        <name>sb::gui::RunNotifier</name>
        <message>
            <source>&amp;Notify about runs (end, failure, stall, loss not finite)</source>
            <translation>运行通知(&amp;N)（结束、失败、停滞、损失非有限值）</translation>
        </message>
        <message>
            <source>Alert &amp;command…</source>
            <translation>提醒命令(&amp;C)…</translation>
        </message>
        <message>
            <source>Run %1</source>
            <translation>运行 %1</translation>
        </message>
        <message>
            <source>Run %1 (%2)</source>
            <translation>运行 %1（%2）</translation>
        </message>
        <message>
            <source>%1 %2 at step %3.</source>
            <translation>%1 在第 %3 步%2。</translation>
        </message>
        <message>
            <source>%1 failed at step %2: %3</source>
            <translation>%1 在第 %2 步失败：%3</translation>
        </message>
        <message>
            <source>%1 has reported no step for %2 s (last step %3).</source>
            <translation>%1 已 %2 秒未报告步骤（最后一步 %3）。</translation>
        </message>
        <message>
            <source>%1 reported a loss of %2 at step %3.</source>
            <translation>%1 在第 %3 步报告损失为 %2。</translation>
        </message>
        <message>
            <source>Alert command</source>
            <translation>提醒命令</translation>
        </message>
        <message>
            <source>A command run on each alert (empty: none), not through a shell. Its environment says what happened: SHARDBENCH_ALERT (finished, failed, stalled, nan_loss), SHARDBENCH_RUN_ID, SHARDBENCH_RUN_NAME, SHARDBENCH_MESSAGE.</source>
            <translation>每次提醒时运行的命令（留空：不运行），不经过 shell。其环境变量说明发生了什么：SHARDBENCH_ALERT（finished、failed、stalled、nan_loss）、SHARDBENCH_RUN_ID、SHARDBENCH_RUN_NAME、SHARDBENCH_MESSAGE。</translation>
        </message>
    </context>
    <context>
        <name>sb::gui::LaunchBar</name>
        <message>
            <source>this machine</source>
            <translation>本机</translation>
        </message>
        <message>
            <source>a Slurm allocation</source>
            <translation>一个 Slurm 分配</translation>
        </message>
        <message>
            <source>Slurm (partition %1)</source>
            <translation>Slurm（分区 %1）</translation>
        </message>
        <message>
            <source>no host chosen</source>
            <translation>未选择主机</translation>
        </message>
        <message>
            <source>Run on</source>
            <translation>运行于</translation>
        </message>
        <message>
            <source>Where the next run goes: choose it in the Run area</source>
            <translation>下一次运行的位置：在“运行”区域中选择</translation>
        </message>
        <message>
            <source>Keep running</source>
            <translation>继续运行</translation>
        </message>
        <message>
            <source>Detached: the run goes on when the workbench closes (as the Run area's &quot;Keep running when the workbench closes&quot;)</source>
            <translation>分离：工作台关闭后运行继续（同“运行”区域的“工作台关闭后继续运行”）</translation>
        </message>
        <message>
            <source>Launch run</source>
            <translation>启动运行</translation>
        </message>
        <message>
            <source>Start the open plan as a new run on %1</source>
            <translation>在%1上将打开的计划作为新运行启动</translation>
        </message>
        <message>
            <source>Launch detached</source>
            <translation>分离启动</translation>
        </message>
        <message>
            <source>Start the open plan as a detached run on %1: it keeps running when the workbench closes</source>
            <translation>在%1上将打开的计划作为分离运行启动：工作台关闭后它继续运行</translation>
        </message>
        <message>
            <source>Restore run %1 at step %2…</source>
            <translation>恢复运行 %1 的第 %2 步…</translation>
        </message>
        <message>
            <source>Restore the checkpoint chosen in the Checkpoints area as a new run</source>
            <translation>将“检查点”区域中选择的检查点恢复为新运行</translation>
        </message>
        <message>
            <source>A run is being checked, runs or is followed: the Run area shows it</source>
            <translation>有运行正在检查、运行或被跟踪：“运行”区域显示它</translation>
        </message>
        <message numerus="yes">
            <source>%n host(s): %1</source>
            <translation>
                <numerusform>%n 台主机：%1</numerusform>
            </translation>
        </message>
    </context>
    <context>
        <name>sb::gui::LaunchPanel</name>
        <message>
            <source>Choose…</source>
            <translation>选择…</translation>
        </message>
        <message>
            <source>A .safetensors file or a Hugging Face model folder; over SSH and Slurm the path on the cluster. Checked against the plan before any rank starts, by this machine or over SSH by the host's shardbench-core; a restart that resumes a checkpoint does not read them</source>
            <translation>一个 .safetensors 文件或 Hugging Face 模型文件夹；通过 SSH 和 Slurm 时为集群上的路径。在任何 rank 启动前对照计划检查：由本机，或通过 SSH 由该主机的 shardbench-core 检查；从检查点恢复的重启不会读取它们</translation>
        </message>
        <message>
            <source>none: the plan's random initialisation</source>
            <translation>无：使用计划的随机初始化</translation>
        </message>
        <message>
            <source>Weights (*.safetensors *.safetensors.index.json);;All files (*)</source>
            <translation>权重 (*.safetensors *.safetensors.index.json);;所有文件 (*)</translation>
        </message>
        <message>
            <source>Start from weights</source>
            <translation>从权重开始</translation>
        </message>
        <message>
            <source>Run on</source>
            <translation>运行于</translation>
        </message>
        <message>
            <source>Name</source>
            <translation>名称</translation>
        </message>
        <message>
            <source>Restarts</source>
            <translation>重启次数</translation>
        </message>
        <message>
            <source>optional, to find the run again</source>
            <translation>可选，便于之后查找此运行</translation>
        </message>
        <message>
            <source>How often a failed run is started again, from its latest complete checkpoint (as torchrun&apos;s --max-restarts)</source>
            <translation>失败的运行从其最新的完整检查点重新启动的次数（同 torchrun 的 --max-restarts）</translation>
        </message>
        <message>
            <source>Check</source>
            <translation>检查</translation>
        </message>
        <message>
            <source>Run the pre-flight checks without launching</source>
            <translation>只运行启动前检查，不启动</translation>
        </message>
        <message>
            <source>Launch</source>
            <translation>启动</translation>
        </message>
        <message>
            <source>Stop now</source>
            <translation>立即停止</translation>
        </message>
        <message>
            <source>Stop</source>
            <translation>停止</translation>
        </message>
        <message>
            <source>Stop every rank (SIGTERM, then SIGKILL after the grace); press again to skip the grace</source>
            <translation>停止所有 rank（先发送 SIGTERM，宽限期后发送 SIGKILL）；再次按下可跳过宽限期</translation>
        </message>
        <message>
            <source>%v of %m checks</source>
            <translation>已完成 %v / %m 项检查</translation>
        </message>
        <message>
            <source>Keep running when the workbench closes</source>
            <translation>工作台关闭后继续运行</translation>
        </message>
        <message>
            <source>Detached: a supervisor on the machine that runs it (the first host over SSH) starts, watches and restarts the ranks and keeps the record; the workbench attaches to it and may close at any time</source>
            <translation>分离运行：运行它的机器（SSH 时为第一台主机）上的监督进程负责启动、监视和重启各 rank 并保存记录；工作台只是附加到它，可随时关闭</translation>
        </message>
        <message>
            <source>Detach</source>
            <translation>分离</translation>
        </message>
        <message>
            <source>Stop following the run here; it goes on, and can be attached to again from Runs</source>
            <translation>不再在此跟踪该运行；它会继续运行，可在“运行记录”中重新附加</translation>
        </message>
        <message>
            <source>Engine</source>
            <translation>引擎</translation>
        </message>
    </context>
    <context>
        <name>sb::gui::LiveRunView</name>
        <message>
            <source>validation loss %1</source>
            <translation>验证损失 %1</translation>
        </message>
        <message>
            <source>Validation loss</source>
            <translation>验证损失</translation>
        </message>
        <message>
            <source>No run yet</source>
            <translation>尚无运行</translation>
        </message>
        <message>
            <source>Launch the open plan (Launch, on the left or at the top right); its loss, throughput, memory and logs appear here.</source>
            <translation>启动当前打开的计划（“启动”，在左侧或右上角）；其损失、吞吐量、内存和日志将显示在这里。</translation>
        </message>
        <message>
            <source>run %1</source>
            <translation>运行 %1</translation>
        </message>
        <message>
            <source>run %1 (%2)</source>
            <translation>运行 %1（%2）</translation>
        </message>
        <message>
            <source>step %1 of %2</source>
            <translation>第 %1 / %2 步</translation>
        </message>
        <message>
            <source>step %1</source>
            <translation>第 %1 步</translation>
        </message>
        <message>
            <source>loss %1</source>
            <translation>损失 %1</translation>
        </message>
        <message>
            <source>ETA %1</source>
            <translation>预计剩余 %1</translation>
        </message>
        <message>
            <source>Smoothing</source>
            <translation>平滑</translation>
        </message>
        <message>
            <source>Loss</source>
            <translation>损失</translation>
        </message>
        <message>
            <source>Step</source>
            <translation>步</translation>
        </message>
        <message>
            <source>Throughput</source>
            <translation>吞吐量</translation>
        </message>
        <message>
            <source>Tokens/s</source>
            <translation>词元/秒</translation>
        </message>
        <message>
            <source>Step time (rank 0)</source>
            <translation>步耗时（rank 0）</translation>
        </message>
        <message>
            <source>ms</source>
            <translation>毫秒</translation>
        </message>
        <message>
            <source>Loss (raw)</source>
            <translation>损失（原始）</translation>
        </message>
        <message>
            <source>Loss (smoothed)</source>
            <translation>损失（平滑）</translation>
        </message>
        <message>
            <source>Tokens/s (all ranks)</source>
            <translation>词元/秒（所有 rank）</translation>
        </message>
        <message>
            <source>Forward</source>
            <translation>前向</translation>
        </message>
        <message>
            <source>Backward</source>
            <translation>反向</translation>
        </message>
        <message>
            <source>Optimizer</source>
            <translation>优化器</translation>
        </message>
        <message>
            <source>Exposed communication</source>
            <translation>未被掩盖的通信</translation>
        </message>
        <message>
            <source>Step (measured)</source>
            <translation>整步（实测）</translation>
        </message>
        <message>
            <source>Exponential moving average of the loss and the throughput, as TensorBoard smooths: 0 is none</source>
            <translation>对损失和吞吐量取指数移动平均，与 TensorBoard 的平滑方式相同：0 表示不平滑</translation>
        </message>
        <message>
            <source>Tokens/s (all ranks, raw)</source>
            <translation>词元/秒（所有 rank，原始）</translation>
        </message>
        <message>
            <source>Chart controls</source>
            <translation>图表操作</translation>
        </message>
        <message>
            <source>Hover for values; drag a box or turn the wheel to zoom, Shift+drag to pan, double-click to show all; right-click for the log scale and exports</source>
            <translation>悬停查看数值；拖出方框或滚动滚轮缩放，Shift+拖动平移，双击显示全部；右键切换对数刻度和导出</translation>
        </message>
        <message>
            <source>X axis</source>
            <translation>X 轴</translation>
        </message>
        <message>
            <source>step</source>
            <translation>步</translation>
        </message>
        <message>
            <source>time since the first step</source>
            <translation>自第一步起的时间</translation>
        </message>
        <message>
            <source>Seconds</source>
            <translation>秒</translation>
        </message>
        <message>
            <source>wall-clock time</source>
            <translation>实际时间</translation>
        </message>
        <message>
            <source>Time</source>
            <translation>时间</translation>
        </message>
        <message>
            <source>%1, %2 in</source>
            <translation>%1，开始后 %2</translation>
        </message>
    </context>
    <context>
        <name>sb::gui::LogPanes</name>
        <message>
            <source>Filter the log…</source>
            <translation>筛选日志…</translation>
        </message>
        <message>
            <source>All</source>
            <translation>全部</translation>
        </message>
        <message>
            <source>Launcher</source>
            <translation>启动器</translation>
        </message>
        <message>
            <source>Rank %1</source>
            <translation>Rank %1</translation>
        </message>
        <message>
            <source>Show the charts</source>
            <translation>显示图表</translation>
        </message>
        <message>
            <source>Enlarge the log</source>
            <translation>放大日志</translation>
        </message>
        <message>
            <source>Give the charts their room back</source>
            <translation>把空间还给图表</translation>
        </message>
        <message>
            <source>The log takes the whole view; the charts give way until you press again</source>
            <translation>日志占据整个视图；图表让位，直到再次按下</translation>
        </message>
    </context>
    <context>
        <name>sb::gui::MainActionsText</name>
        <message>
            <source>New plan from a &amp;Hugging Face model folder…</source>
            <translation>从 &amp;Hugging Face 模型文件夹新建计划…</translation>
        </message>
        <message>
            <source>&amp;New plan</source>
            <translation>新建计划(&amp;N)</translation>
        </message>
        <message>
            <source>&amp;Open…</source>
            <translation>打开(&amp;O)…</translation>
        </message>
        <message>
            <source>&amp;Save</source>
            <translation>保存(&amp;S)</translation>
        </message>
        <message>
            <source>Save &amp;as…</source>
            <translation>另存为(&amp;A)…</translation>
        </message>
        <message>
            <source>&amp;Import module tree…</source>
            <translation>导入模块树(&amp;I)…</translation>
        </message>
        <message>
            <source>PyTorch FSDP2 &amp;script…</source>
            <translation>PyTorch FSDP2 脚本(&amp;S)…</translation>
        </message>
        <message>
            <source>Charts as &amp;PNG…</source>
            <translation>图表导出为 &amp;PNG…</translation>
        </message>
        <message>
            <source>Charts as S&amp;VG…</source>
            <translation>图表导出为 S&amp;VG…</translation>
        </message>
        <message>
            <source>Memory breakdown as &amp;CSV…</source>
            <translation>内存明细导出为 &amp;CSV…</translation>
        </message>
        <message>
            <source>&amp;Quit</source>
            <translation>退出(&amp;Q)</translation>
        </message>
        <message>
            <source>Select &amp;all modules</source>
            <translation>选择所有模块(&amp;A)</translation>
        </message>
        <message>
            <source>Make every &amp;block a unit</source>
            <translation>将每个块设为单元(&amp;B)</translation>
        </message>
        <message>
            <source>Blocks as units</source>
            <translation>块设为单元</translation>
        </message>
        <message>
            <source>Make each repeated block (layers.0, layers.1, …) a shard unit, as the FSDP2 tutorial does</source>
            <translation>将每个重复块（layers.0、layers.1、…）设为分片单元，与 FSDP2 教程相同</translation>
        </message>
        <message>
            <source>Make selected modules &amp;units</source>
            <translation>将所选模块设为单元(&amp;U)</translation>
        </message>
        <message>
            <source>&amp;Remove selected units</source>
            <translation>移除所选单元(&amp;R)</translation>
        </message>
        <message>
            <source>&amp;System language</source>
            <translation>系统语言(&amp;S)</translation>
        </message>
        <message>
            <source>&amp;About shardbench</source>
            <translation>关于 shardbench(&amp;A)</translation>
        </message>
        <message>
            <source>&amp;File</source>
            <translation>文件(&amp;F)</translation>
        </message>
        <message>
            <source>Open &amp;recent</source>
            <translation>最近打开(&amp;R)</translation>
        </message>
        <message>
            <source>&amp;Export</source>
            <translation>导出(&amp;E)</translation>
        </message>
        <message>
            <source>&amp;Edit</source>
            <translation>编辑(&amp;E)</translation>
        </message>
        <message>
            <source>&amp;View</source>
            <translation>视图(&amp;V)</translation>
        </message>
        <message>
            <source>&amp;Settings</source>
            <translation>设置(&amp;S)</translation>
        </message>
        <message>
            <source>&amp;Language</source>
            <translation>语言(&amp;L)</translation>
        </message>
        <message>
            <source>&amp;Help</source>
            <translation>帮助(&amp;H)</translation>
        </message>
        <message>
            <source>Main toolbar</source>
            <translation>主工具栏</translation>
        </message>
        <message>
            <source>&amp;Undo</source>
            <translation>撤销(&amp;U)</translation>
        </message>
        <message>
            <source>&amp;Undo %1</source>
            <translation>撤销(&amp;U)：%1</translation>
        </message>
        <message>
            <source>&amp;Redo</source>
            <translation>重做(&amp;R)</translation>
        </message>
        <message>
            <source>&amp;Redo %1</source>
            <translation>重做(&amp;R)：%1</translation>
        </message>
        <message>
            <source>Undo</source>
            <translation>撤销</translation>
        </message>
        <message>
            <source>Redo</source>
            <translation>重做</translation>
        </message>
    </context>
    <context>
        <name>sb::gui::MainWindow</name>
        <message>
            <source>Setup</source>
            <translation>设置</translation>
        </message>
        <message>
            <source>Problems</source>
            <translation>问题</translation>
        </message>
        <message>
            <source>Model</source>
            <translation>模型</translation>
        </message>
        <message>
            <source>Mesh</source>
            <translation>设备网格</translation>
        </message>
        <message>
            <source>Training</source>
            <translation>训练</translation>
        </message>
        <message>
            <source>Untitled plan</source>
            <translation>未命名计划</translation>
        </message>
        <message>
            <source>%1[*] — shardbench</source>
            <translation>%1[*] — shardbench</translation>
        </message>
        <message>
            <source>No estimate: the plan has errors</source>
            <translation>无估算：计划存在错误</translation>
        </message>
        <message>
            <source>Peak %1 of %2 per rank</source>
            <translation>每个 rank 峰值 %1 / %2</translation>
        </message>
        <message>
            <source>About shardbench</source>
            <translation>关于 shardbench</translation>
        </message>
        <message>
            <source>&lt;p&gt;&lt;b&gt;shardbench&lt;/b&gt; %1&lt;/p&gt;&lt;p&gt;A workbench for FSDP2-style sharded training: design a sharding plan, see every rank&apos;s memory, and export the plan as a PyTorch FSDP2 script.&lt;/p&gt;</source>
            <translation>&lt;p&gt;&lt;b&gt;shardbench&lt;/b&gt; %1&lt;/p&gt;&lt;p&gt;面向 FSDP2 式分片训练的工作台：设计分片计划，查看每个 rank 的内存，并将计划导出为 PyTorch FSDP2 脚本。&lt;/p&gt;</translation>
        </message>
        <message>
            <source>Plan</source>
            <translation>计划</translation>
        </message>
        <message>
            <source>A run is in progress</source>
            <translation>有运行正在进行</translation>
        </message>
        <message>
            <source>Closing the workbench stops every rank of the running training. Stop it and quit?</source>
            <translation>关闭工作台会停止正在运行的训练的所有 rank。是否停止并退出？</translation>
        </message>
    </context>
    <context>
        <name>sb::gui::MemoryView</name>
        <message>
            <source>Per rank</source>
            <translation>每个 rank</translation>
        </message>
        <message>
            <source>Through one step</source>
            <translation>一步之内</translation>
        </message>
        <message>
            <source>Use it</source>
            <translation>采用</translation>
        </message>
        <message>
            <source>Set the micro-batch to the largest that fits (undoable)</source>
            <translation>将 micro-batch 设为可容纳的最大值（可撤销）</translation>
        </message>
        <message>
            <source>The plan has errors: fix the problems listed below to see its memory.</source>
            <translation>计划存在错误：请修复下方列出的问题以查看其内存。</translation>
        </message>
        <message>
            <source>Fits: peak %1 on rank %2 (at %3), %4 to spare of %5 (%6).</source>
            <translation>可容纳：rank %2 峰值 %1（位于 %3），%5（%6）中尚余 %4。</translation>
        </message>
        <message>
            <source>Does not fit: rank %1 needs %2 at %3, %4 more than the %5 of a %6.</source>
            <translation>无法容纳：rank %1 在 %3 需要 %2，比 %6 的 %5 多 %4。</translation>
        </message>
        <message numerus="yes">
            <source>%1 parameters in %n shard unit(s) · world %2, shard group %3, replicate %4 · micro-batch %5 × sequence %6, accumulation %7</source>
            <translation>
                <numerusform>%1 个参数，%n 个分片单元 · world %2，分片组 %3，副本 %4 · micro-batch %5 × 序列 %6，累积 %7</numerusform>
            </translation>
        </message>
        <message>
            <source>Largest micro-batch that fits: computing…</source>
            <translation>可容纳的最大 micro-batch：计算中…</translation>
        </message>
        <message>
            <source>Largest micro-batch that fits: none, even a micro-batch of 1 is over capacity.</source>
            <translation>可容纳的最大 micro-batch：无，即使 micro-batch 为 1 也超出容量。</translation>
        </message>
        <message>
            <source>Largest micro-batch that fits: %1 (now %2).</source>
            <translation>可容纳的最大 micro-batch：%1（当前 %2）。</translation>
        </message>
    </context>
    <context>
        <name>sb::gui::MeshPanel</name>
        <message>
            <source>Nodes</source>
            <translation>节点数</translation>
        </message>
        <message>
            <source>GPUs per node</source>
            <translation>每节点 GPU 数</translation>
        </message>
        <message>
            <source>Replicate (HSDP)</source>
            <translation>副本数 (HSDP)</translation>
        </message>
        <message>
            <source>Device</source>
            <translation>设备</translation>
        </message>
        <message>
            <source>Memory per rank</source>
            <translation>每个 rank 的内存</translation>
        </message>
        <message>
            <source>Replicas of the model; each shards over world size / replicate ranks</source>
            <translation>模型副本数；每个副本在 world size / 副本数 个 rank 上分片</translation>
        </message>
        <message>
            <source> GiB</source>
            <translation> GiB</translation>
        </message>
        <message>
            <source>World size %1, shard group %2 ranks</source>
            <translation>World size %1，分片组 %2 个 rank</translation>
        </message>
    </context>
    <context>
        <name>sb::gui::ModelPanel</name>
        <message>
            <source>The source model's attention window (Mistral v0.1: 4096); the sequence length must not exceed it</source>
            <translation>源模型的注意力窗口（Mistral v0.1：4096）；序列长度不得超过它</translation>
        </message>
        <message>
            <source>none</source>
            <translation>无</translation>
        </message>
        <message>
            <source>The RMSNorms' epsilon (Hugging Face's rms_norm_eps; Llama 1e-5, Qwen 1e-6)</source>
            <translation>RMSNorm 的 epsilon（Hugging Face 的 rms_norm_eps；Llama 1e-5，Qwen 1e-6）</translation>
        </message>
        <message>
            <source>Each attention head's width where it is not the width divided by the heads (Qwen3: 128)</source>
            <translation>每个注意力头的宽度，当它不等于宽度除以头数时（Qwen3：128）</translation>
        </message>
        <message>
            <source>width / heads</source>
            <translation>宽度 / 头数</translation>
        </message>
        <message>
            <source>Sliding window</source>
            <translation>滑动窗口</translation>
        </message>
        <message>
            <source>Norm epsilon</source>
            <translation>归一化 epsilon</translation>
        </message>
        <message>
            <source>RoPE theta</source>
            <translation>RoPE theta</translation>
        </message>
        <message>
            <source>Head width</source>
            <translation>注意力头宽度</translation>
        </message>
        <message>
            <source>Model</source>
            <translation>模型</translation>
        </message>
        <message>
            <source>Vocabulary</source>
            <translation>词表大小</translation>
        </message>
        <message>
            <source>Width (dim)</source>
            <translation>宽度 (dim)</translation>
        </message>
        <message>
            <source>Layers</source>
            <translation>层数</translation>
        </message>
        <message>
            <source>Attention heads</source>
            <translation>注意力头数</translation>
        </message>
        <message>
            <source>KV heads</source>
            <translation>KV 头数</translation>
        </message>
        <message>
            <source>MLP hidden</source>
            <translation>MLP 隐藏宽度</translation>
        </message>
        <message>
            <source>Max. sequence</source>
            <translation>最大序列长度</translation>
        </message>
        <message>
            <source>Parameter dtype</source>
            <translation>参数数据类型</translation>
        </message>
        <message>
            <source>Import module tree…</source>
            <translation>导入模块树…</translation>
        </message>
        <message>
            <source>Read a module tree written by scripts/export_module_tree.py</source>
            <translation>读取由 scripts/export_module_tree.py 写出的模块树</translation>
        </message>
        <message>
            <source>Imported: %1</source>
            <translation>已导入：%1</translation>
        </message>
        <message>
            <source>Import a module tree…</source>
            <translation>导入模块树…</translation>
        </message>
        <message numerus="yes">
            <source>%1 parameters in %n module(s)</source>
            <translation>
                <numerusform>%1 个参数，共 %n 个模块</numerusform>
            </translation>
        </message>
        <message>
            <source>Tied embeddings</source>
            <translation>共享嵌入权重</translation>
        </message>
        <message>
            <source>The output projection shares the token embedding&apos;s weight</source>
            <translation>输出投影与 token 嵌入共享权重</translation>
        </message>
    </context>
    <context>
        <name>sb::gui::PlanDiffModel</name>
        <message>
            <source>Part</source>
            <translation>部分</translation>
        </message>
        <message>
            <source>Item</source>
            <translation>项目</translation>
        </message>
    </context>
    <context>
        <name>sb::gui::PlanDiffText</name>
        <message>
            <source>yes</source>
            <translation>是</translation>
        </message>
        <message>
            <source>no</source>
            <translation>否</translation>
        </message>
        <message>
            <source>the parameter&apos;s own</source>
            <translation>参数自身的</translation>
        </message>
        <message>
            <source>none</source>
            <translation>无</translation>
        </message>
        <message>
            <source>(root)</source>
            <translation>（根）</translation>
        </message>
        <message>
            <source>Model</source>
            <translation>模型</translation>
        </message>
        <message>
            <source>Mesh</source>
            <translation>网格</translation>
        </message>
        <message>
            <source>Training</source>
            <translation>训练</translation>
        </message>
        <message>
            <source>Shard units</source>
            <translation>分片单元</translation>
        </message>
        <message>
            <source>Policy</source>
            <translation>策略</translation>
        </message>
        <message>
            <source>preset</source>
            <translation>预设</translation>
        </message>
        <message>
            <source>architecture</source>
            <translation>架构</translation>
        </message>
        <message>
            <source>vocabulary</source>
            <translation>词表</translation>
        </message>
        <message>
            <source>width</source>
            <translation>宽度</translation>
        </message>
        <message>
            <source>layers</source>
            <translation>层数</translation>
        </message>
        <message>
            <source>heads</source>
            <translation>注意力头</translation>
        </message>
        <message>
            <source>key/value heads</source>
            <translation>key/value 头</translation>
        </message>
        <message>
            <source>MLP width</source>
            <translation>MLP 宽度</translation>
        </message>
        <message>
            <source>longest sequence</source>
            <translation>最长序列</translation>
        </message>
        <message>
            <source>parameter dtype</source>
            <translation>参数数据类型</translation>
        </message>
        <message>
            <source>nodes</source>
            <translation>节点数</translation>
        </message>
        <message>
            <source>processes per node</source>
            <translation>每节点进程数</translation>
        </message>
        <message>
            <source>replicas (HSDP)</source>
            <translation>副本数（HSDP）</translation>
        </message>
        <message>
            <source>device</source>
            <translation>设备</translation>
        </message>
        <message>
            <source>memory per rank</source>
            <translation>每个 rank 的内存</translation>
        </message>
        <message>
            <source>micro-batch</source>
            <translation>微批次</translation>
        </message>
        <message>
            <source>sequence length</source>
            <translation>序列长度</translation>
        </message>
        <message>
            <source>accumulation steps</source>
            <translation>累积步数</translation>
        </message>
        <message>
            <source>steps</source>
            <translation>步数</translation>
        </message>
        <message>
            <source>seed</source>
            <translation>随机种子</translation>
        </message>
        <message>
            <source>gradient clipping</source>
            <translation>梯度裁剪</translation>
        </message>
        <message>
            <source>learning rate</source>
            <translation>学习率</translation>
        </message>
        <message>
            <source>schedule</source>
            <translation>调度</translation>
        </message>
        <message>
            <source>warm-up steps</source>
            <translation>预热步数</translation>
        </message>
        <message>
            <source>weight decay</source>
            <translation>权重衰减</translation>
        </message>
        <message>
            <source>data</source>
            <translation>数据</translation>
        </message>
        <message>
            <source>synthetic</source>
            <translation>合成</translation>
        </message>
        <message>
            <source>tokens: %1</source>
            <translation>token：%1</translation>
        </message>
        <message>
            <source>text: %1</source>
            <translation>文本：%1</translation>
        </message>
        <message>
            <source>checkpoint folder</source>
            <translation>检查点文件夹</translation>
        </message>
        <message>
            <source>checkpoint every</source>
            <translation>检查点间隔</translation>
        </message>
        <message>
            <source>unit</source>
            <translation>单元</translation>
        </message>
        <message>
            <source>not a unit</source>
            <translation>非单元</translation>
        </message>
        <message>
            <source>reshard after forward</source>
            <translation>前向后重新分片</translation>
        </message>
        <message>
            <source>param dtype</source>
            <translation>参数类型</translation>
        </message>
        <message>
            <source>reduce dtype</source>
            <translation>归约类型</translation>
        </message>
        <message>
            <source>output dtype</source>
            <translation>输出类型</translation>
        </message>
        <message>
            <source>cast forward inputs</source>
            <translation>转换前向输入</translation>
        </message>
        <message>
            <source>CPU offload</source>
            <translation>CPU 卸载</translation>
        </message>
        <message>
            <source>activation checkpointing</source>
            <translation>激活检查点</translation>
        </message>
        <message>
            <source>forward prefetch</source>
            <translation>前向预取</translation>
        </message>
        <message>
            <source>backward prefetch</source>
            <translation>反向预取</translation>
        </message>
        <message>
            <source>ignored parameters</source>
            <translation>忽略的参数</translation>
        </message>
    </context>
    <context>
        <name>sb::gui::PlanEdits</name>
        <message numerus="yes">
            <source>Make %n unit(s)</source>
            <translation>
                <numerusform>设置 %n 个单元</numerusform>
            </translation>
        </message>
        <message numerus="yes">
            <source>Remove %n unit(s)</source>
            <translation>
                <numerusform>移除 %n 个单元</numerusform>
            </translation>
        </message>
        <message numerus="yes">
            <source>Set reshard after forward on %n unit(s)</source>
            <translation>
                <numerusform>为 %n 个单元设置前向后重新分片</numerusform>
            </translation>
        </message>
        <message numerus="yes">
            <source>Set parameter dtype on %n unit(s)</source>
            <translation>
                <numerusform>为 %n 个单元设置参数数据类型</numerusform>
            </translation>
        </message>
        <message numerus="yes">
            <source>Set reduce dtype on %n unit(s)</source>
            <translation>
                <numerusform>为 %n 个单元设置归约数据类型</numerusform>
            </translation>
        </message>
        <message numerus="yes">
            <source>Set output dtype on %n unit(s)</source>
            <translation>
                <numerusform>为 %n 个单元设置输出数据类型</numerusform>
            </translation>
        </message>
        <message numerus="yes">
            <source>Set CPU offload on %n unit(s)</source>
            <translation>
                <numerusform>为 %n 个单元设置 CPU 卸载</numerusform>
            </translation>
        </message>
        <message numerus="yes">
            <source>Set activation checkpointing on %n unit(s)</source>
            <translation>
                <numerusform>为 %n 个单元设置激活检查点</numerusform>
            </translation>
        </message>
        <message numerus="yes">
            <source>Set forward prefetch on %n unit(s)</source>
            <translation>
                <numerusform>为 %n 个单元设置前向预取</numerusform>
            </translation>
        </message>
        <message numerus="yes">
            <source>Set backward prefetch on %n unit(s)</source>
            <translation>
                <numerusform>为 %n 个单元设置反向预取</numerusform>
            </translation>
        </message>
        <message>
            <source>Make every block a unit</source>
            <translation>将每个块设为单元</translation>
        </message>
        <message>
            <source>Change model to %1</source>
            <translation>将模型改为 %1</translation>
        </message>
        <message>
            <source>Change model sizes</source>
            <translation>修改模型尺寸</translation>
        </message>
        <message>
            <source>Change mesh</source>
            <translation>修改设备网格</translation>
        </message>
        <message>
            <source>Change training settings</source>
            <translation>修改训练设置</translation>
        </message>
    </context>
    <context>
        <name>sb::gui::PlanTreeModel</name>
        <message>
            <source>Tied to %1</source>
            <translation>与 %1 共享</translation>
        </message>
        <message>
            <source>%1, tied</source>
            <translation>%1，共享</translation>
        </message>
        <message>
            <source>(root)</source>
            <translation>（根）</translation>
        </message>
        <message>
            <source>The root module</source>
            <translation>根模块</translation>
        </message>
        <message>
            <source>The root is always a unit: it owns every parameter no other unit takes</source>
            <translation>根始终是一个单元：它拥有其他单元未接管的所有参数</translation>
        </message>
        <message>
            <source>A shard unit (fully_shard is applied to this module)</source>
            <translation>分片单元（对该模块调用 fully_shard）</translation>
        </message>
        <message>
            <source>Sharded with unit %1</source>
            <translation>随单元 %1 分片</translation>
        </message>
        <message>
            <source>Default: the root keeps its parameters after forward (False)</source>
            <translation>默认：根在前向之后保留其参数 (False)</translation>
        </message>
        <message>
            <source>Default: free the parameters after forward (True)</source>
            <translation>默认：前向之后释放参数 (True)</translation>
        </message>
        <message>
            <source>Not set: the parameters&apos; own dtype</source>
            <translation>未设置：使用参数自身的数据类型</translation>
        </message>
        <message>
            <source>Not set: gradients are reduced in the parameter dtype</source>
            <translation>未设置：梯度以参数数据类型归约</translation>
        </message>
        <message>
            <source>Not set: outputs are not cast</source>
            <translation>未设置：输出不做类型转换</translation>
        </message>
        <message>
            <source>Module</source>
            <translation>模块</translation>
        </message>
        <message>
            <source>Type</source>
            <translation>类型</translation>
        </message>
        <message>
            <source>Parameters</source>
            <translation>参数</translation>
        </message>
        <message>
            <source>Shape</source>
            <translation>形状</translation>
        </message>
        <message>
            <source>Unit</source>
            <translation>单元</translation>
        </message>
        <message>
            <source>Reshard</source>
            <translation>重新分片</translation>
        </message>
        <message>
            <source>Param dtype</source>
            <translation>参数类型</translation>
        </message>
        <message>
            <source>Reduce dtype</source>
            <translation>归约类型</translation>
        </message>
        <message>
            <source>Output dtype</source>
            <translation>输出类型</translation>
        </message>
        <message>
            <source>Offload</source>
            <translation>卸载</translation>
        </message>
        <message>
            <source>Checkpoint</source>
            <translation>检查点</translation>
        </message>
        <message>
            <source>Forward prefetch</source>
            <translation>前向预取</translation>
        </message>
        <message>
            <source>Backward prefetch</source>
            <translation>反向预取</translation>
        </message>
        <message>
            <source>Shard unit: fully_shard is applied to this module</source>
            <translation>分片单元：对该模块调用 fully_shard</translation>
        </message>
        <message>
            <source>reshard_after_forward: default, True, False, or an integer k (keep a 1/k copy)</source>
            <translation>reshard_after_forward：默认、True、False 或整数 k（保留 1/k 副本）</translation>
        </message>
        <message>
            <source>MixedPrecisionPolicy.param_dtype: the dtype gathered parameters compute in</source>
            <translation>MixedPrecisionPolicy.param_dtype：聚合后参数参与计算的数据类型</translation>
        </message>
        <message>
            <source>MixedPrecisionPolicy.reduce_dtype: the dtype gradients are reduced in</source>
            <translation>MixedPrecisionPolicy.reduce_dtype：梯度归约所用的数据类型</translation>
        </message>
        <message>
            <source>MixedPrecisionPolicy.output_dtype: the dtype the unit&apos;s outputs are cast to</source>
            <translation>MixedPrecisionPolicy.output_dtype：单元输出被转换成的数据类型</translation>
        </message>
        <message>
            <source>CPUOffloadPolicy: sharded parameters, gradients and optimizer state on the host</source>
            <translation>CPUOffloadPolicy：分片参数、梯度和优化器状态放在主机上</translation>
        </message>
        <message>
            <source>Activation checkpointing: keep only the unit&apos;s input and recompute in backward</source>
            <translation>激活检查点：只保留单元的输入，在反向时重新计算</translation>
        </message>
        <message>
            <source>Units to all-gather early in forward (comma-separated)</source>
            <translation>前向时提前 all-gather 的单元（逗号分隔）</translation>
        </message>
        <message>
            <source>Units to all-gather early in backward (comma-separated)</source>
            <translation>反向时提前 all-gather 的单元（逗号分隔）</translation>
        </message>
    </context>
    <context>
        <name>sb::gui::PlanTreeView</name>
        <message>
            <source>Reshard after forward</source>
            <translation>前向后重新分片</translation>
        </message>
        <message>
            <source>Keep a 1/k copy after forward; k must divide the shard group of %1 ranks.</source>
            <translation>前向之后保留 1/k 副本；k 必须整除 %1 个 rank 的分片组。</translation>
        </message>
        <message>
            <source>Make units</source>
            <translation>设为单元</translation>
        </message>
        <message>
            <source>Remove units</source>
            <translation>移除单元</translation>
        </message>
        <message>
            <source>Make every block a unit</source>
            <translation>将每个块设为单元</translation>
        </message>
        <message>
            <source>default</source>
            <translation>默认</translation>
        </message>
        <message>
            <source>Integer k…</source>
            <translation>整数 k…</translation>
        </message>
        <message>
            <source>Parameter dtype</source>
            <translation>参数数据类型</translation>
        </message>
        <message>
            <source>Reduce dtype</source>
            <translation>归约类型</translation>
        </message>
        <message>
            <source>Output dtype</source>
            <translation>输出类型</translation>
        </message>
        <message>
            <source>CPU offload</source>
            <translation>CPU 卸载</translation>
        </message>
        <message>
            <source>On</source>
            <translation>开</translation>
        </message>
        <message>
            <source>Off</source>
            <translation>关</translation>
        </message>
        <message>
            <source>Activation checkpointing</source>
            <translation>激活检查点</translation>
        </message>
        <message>
            <source>Expand all</source>
            <translation>全部展开</translation>
        </message>
        <message>
            <source>Collapse all</source>
            <translation>全部折叠</translation>
        </message>
    </context>
    <context>
        <name>sb::gui::PolicyDelegate</name>
        <message>
            <source>default</source>
            <translation>默认</translation>
        </message>
        <message>
            <source>default, True, False, or an integer k that divides the shard group</source>
            <translation>默认、True、False 或能整除分片组的整数 k</translation>
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
            <translation>rank %1 需要 %2，但设备只有 %3：已按确认仍然启动</translation>
        </message>
        <message>
            <source>The run cannot run on this machine</source>
            <translation>该运行无法在本机上运行</translation>
        </message>
        <message>
            <source>The plan is valid</source>
            <translation>计划有效</translation>
        </message>
        <message>
            <source>The estimated memory fits the device</source>
            <translation>估算的内存可容纳于设备</translation>
        </message>
        <message>
            <source>The ranks fit the chosen machines</source>
            <translation>rank 可分布到所选机器上</translation>
        </message>
        <message>
            <source>The hosts are reachable</source>
            <translation>主机可连接</translation>
        </message>
        <message>
            <source>shardbench-core is present</source>
            <translation>shardbench-core 存在</translation>
        </message>
        <message>
            <source>Checking this machine…</source>
            <translation>正在检查本机…</translation>
        </message>
        <message>
            <source>Connecting…</source>
            <translation>正在连接…</translation>
        </message>
        <message>
            <source>Starting shardbench-core for a test…</source>
            <translation>正在启动 shardbench-core 进行测试…</translation>
        </message>
        <message>
            <source>No problems</source>
            <translation>没有问题</translation>
        </message>
        <message numerus="yes">
            <source>No errors, %n warning(s)</source>
            <translation>
                <numerusform>没有错误，%n 个警告</numerusform>
            </translation>
        </message>
        <message numerus="yes">
            <source>%n error(s) in the plan</source>
            <translation>
                <numerusform>计划中有 %n 个错误</numerusform>
            </translation>
        </message>
        <message>
            <source>Not estimated: the plan has errors</source>
            <translation>未估算：计划存在错误</translation>
        </message>
        <message>
            <source>Not checked: the plan has errors</source>
            <translation>未检查：计划存在错误</translation>
        </message>
        <message>
            <source>Peak %1 of %2 per rank</source>
            <translation>每个 rank 峰值 %1 / %2</translation>
        </message>
        <message>
            <source>Rank %1 needs %2 but the device has %3: over by %4</source>
            <translation>rank %1 需要 %2，但设备只有 %3：超出 %4</translation>
        </message>
        <message>
            <source>Cannot write the plan for the ranks</source>
            <translation>无法为各 rank 写入计划</translation>
        </message>
        <message>
            <source>The run cannot be laid out</source>
            <translation>无法安排此运行</translation>
        </message>
        <message numerus="yes">
            <source>%1: %n rank(s)</source>
            <translation>
                <numerusform>%1：%n 个 rank</numerusform>
            </translation>
        </message>
        <message numerus="yes">
            <source>%n rank(s) through srun (Slurm)</source>
            <translation>
                <numerusform>通过 srun（Slurm）运行 %n 个 rank</numerusform>
            </translation>
        </message>
        <message numerus="yes">
            <source>%n rank(s) on this machine</source>
            <translation>
                <numerusform>本机上 %n 个 rank</numerusform>
            </translation>
        </message>
        <message numerus="yes">
            <source>%n rank(s) on %1</source>
            <translation>
                <numerusform>%1 上共 %n 个 rank</numerusform>
            </translation>
        </message>
        <message>
            <source>This machine</source>
            <translation>本机</translation>
        </message>
        <message numerus="yes">
            <source>%n host(s) reachable and logged in</source>
            <translation>
                <numerusform>%n 台主机可连接且已登录</numerusform>
            </translation>
        </message>
        <message numerus="yes">
            <source>%n host(s) failed</source>
            <translation>
                <numerusform>%n 台主机失败</numerusform>
            </translation>
        </message>
        <message numerus="yes">
            <source>Missing or not working on %n host(s)</source>
            <translation>
                <numerusform>在 %n 台主机上缺失或无法运行</numerusform>
            </translation>
        </message>
        <message>
            <source>Not checked on hosts that could not be reached</source>
            <translation>在无法连接的主机上未检查</translation>
        </message>
        <message>
            <source>%1 on the nodes&apos; PATH (not checked here)</source>
            <translation>%1 位于节点的 PATH 中（此处未检查）</translation>
        </message>
        <message numerus="yes">
            <source>Present on %n host(s)</source>
            <translation>
                <numerusform>存在于 %n 台主机上</numerusform>
            </translation>
        </message>
        <message>
            <source>%1 (LibTorch %2, %3) at %4</source>
            <translation>%1（LibTorch %2，%3），位于 %4</translation>
        </message>
        <message>
            <source>%1: %2 (LibTorch %3, %4) at %5</source>
            <translation>%1：%2（LibTorch %3，%4），位于 %5</translation>
        </message>
        <message>
            <source>Python %1 with PyTorch %2 at %3</source>
            <translation>Python %1，PyTorch %2，位于 %3</translation>
        </message>
        <message>
            <source>%1: Python %2 with PyTorch %3 at %4</source>
            <translation>%1：Python %2，PyTorch %3，位于 %4</translation>
        </message>
        <message>
            <source>Python and PyTorch are present</source>
            <translation>Python 和 PyTorch 可用</translation>
        </message>
        <message>
            <source>Testing Python and PyTorch…</source>
            <translation>正在测试 Python 和 PyTorch…</translation>
        </message>
    </context>
    <context>
        <name>sb::gui::PreflightModel</name>
        <message>
            <source>Check</source>
            <translation>检查项</translation>
        </message>
        <message>
            <source>Result</source>
            <translation>结果</translation>
        </message>
    </context>
    <context>
        <name>sb::gui::ProblemText</name>
        <message>
            <source>synthetic data has its own held-out stream: &quot;path&quot; and &quot;holdout&quot; need tokens or text data</source>
            <translation>合成数据有自己的留出数据流：&quot;path&quot; 和 &quot;holdout&quot; 需要 tokens 或 text 数据</translation>
        </message>
        <message>
            <source>a validation loss on tokens or text data needs a held-out &quot;path&quot; or a &quot;holdout&quot; fraction, not both</source>
            <translation>tokens 或 text 数据上的验证损失需要留出的 &quot;path&quot; 或 &quot;holdout&quot; 比例，二者不可兼有</translation>
        </message>
        <message>
            <source>holdout must lie in (0, 0.5], got %1</source>
            <translation>holdout 必须位于 (0, 0.5] 之间，实际为 %1</translation>
        </message>
        <message>
            <source>eval every must not be negative</source>
            <translation>eval every 不能为负</translation>
        </message>
        <message>
            <source>eval batches must lie in [0, 100000]</source>
            <translation>eval batches 必须位于 [0, 100000] 之间</translation>
        </message>
        <message>
            <source>nodes must be at least 1</source>
            <translation>nodes 至少为 1</translation>
        </message>
        <message>
            <source>procs_per_node must be at least 1</source>
            <translation>procs_per_node 至少为 1</translation>
        </message>
        <message>
            <source>replicate must be at least 1</source>
            <translation>replicate 至少为 1</translation>
        </message>
        <message>
            <source>replicate degree %1 does not divide world size %2</source>
            <translation>副本数 %1 不能整除 world size %2</translation>
        </message>
        <message>
            <source>world size %1 is above the %2 ranks shardbench models</source>
            <translation>world size %1 超过了 shardbench 可建模的 %2 个 rank</translation>
        </message>
        <message>
            <source>device memory must be greater than 0</source>
            <translation>设备内存必须大于 0</translation>
        </message>
        <message>
            <source>micro_batch must be at least 1</source>
            <translation>micro_batch 至少为 1</translation>
        </message>
        <message>
            <source>seq_len must be at least 1</source>
            <translation>seq_len 至少为 1</translation>
        </message>
        <message>
            <source>grad_accum must be at least 1</source>
            <translation>grad_accum 至少为 1</translation>
        </message>
        <message>
            <source>steps must not be negative</source>
            <translation>steps 不能为负</translation>
        </message>
        <message>
            <source>seq_len %1 exceeds the model&apos;s position table (max_seq_len %2)</source>
            <translation>seq_len %1 超出了模型的位置表 (max_seq_len %2)</translation>
        </message>
        <message>
            <source>grad_clip must be 0 (off) or positive</source>
            <translation>grad_clip 必须为 0（关闭）或正数</translation>
        </message>
        <message>
            <source>lr must be greater than 0 and below 10</source>
            <translation>lr 必须大于 0 且小于 10</translation>
        </message>
        <message>
            <source>betas must lie in [0, 1)</source>
            <translation>betas 必须位于 [0, 1) 之间</translation>
        </message>
        <message>
            <source>eps must be positive</source>
            <translation>eps 必须为正数</translation>
        </message>
        <message>
            <source>weight_decay must not be negative</source>
            <translation>weight_decay 不能为负</translation>
        </message>
        <message>
            <source>schedule must be &quot;constant&quot; or &quot;cosine&quot;, got &quot;%1&quot;</source>
            <translation>schedule 必须为 &quot;constant&quot; 或 &quot;cosine&quot;，实际为 &quot;%1&quot;</translation>
        </message>
        <message>
            <source>no_decay entries are &quot;1d&quot; and &quot;embeddings&quot;, got &quot;%1&quot;</source>
            <translation>no_decay 的条目只能是“1d”和“embeddings”，实际为“%1”</translation>
        </message>
        <message>
            <source>min_lr_ratio must lie in [0, 1]</source>
            <translation>min_lr_ratio 必须位于 [0, 1] 之间</translation>
        </message>
        <message>
            <source>a tokens or text data source needs a &quot;path&quot;</source>
            <translation>tokens 或 text 数据源需要 &quot;path&quot;</translation>
        </message>
        <message>
            <source>a checkpoint interval needs a checkpoint &quot;dir&quot;</source>
            <translation>检查点间隔需要检查点 &quot;dir&quot;</translation>
        </message>
        <message>
            <source>unsupported plan version %1</source>
            <translation>不支持的计划版本 %1</translation>
        </message>
        <message>
            <source>missing integer &quot;version&quot;</source>
            <translation>缺少整数 &quot;version&quot;</translation>
        </message>
        <message>
            <source>plan format version %1 is not supported (this build reads version %2)</source>
            <translation>不支持计划格式版本 %1（此版本读取版本 %2）</translation>
        </message>
        <message>
            <source>not a shardbench plan: &quot;format&quot; must be &quot;shardbench-plan&quot;</source>
            <translation>不是 shardbench 计划：&quot;format&quot; 必须为 &quot;shardbench-plan&quot;</translation>
        </message>
        <message>
            <source>invalid JSON at %1</source>
            <translation>%1 处的 JSON 无效</translation>
        </message>
        <message>
            <source>unknown field &quot;%1&quot; is ignored</source>
            <translation>未知字段 &quot;%1&quot; 已忽略</translation>
        </message>
        <message>
            <source>the model has no parameters</source>
            <translation>模型没有参数</translation>
        </message>
        <message>
            <source>parameter &quot;%1&quot; is a scalar; fully_shard cannot shard 0-dim parameters (make it 1-D or list it in ignored_params)</source>
            <translation>参数 &quot;%1&quot; 是标量；fully_shard 无法对 0 维参数分片（请改为 1 维，或将其列入 ignored_params）</translation>
        </message>
        <message>
            <source>reshard_after_forward %1 does not divide the shard group of %2 ranks</source>
            <translation>reshard_after_forward %1 不能整除 %2 个 rank 的分片组</translation>
        </message>
        <message>
            <source>fp16 compute is not available on cpu; use bf16</source>
            <translation>CPU 上不支持 fp16 计算；请使用 bf16</translation>
        </message>
        <message>
            <source>CPU offload has no effect when the device is already the CPU</source>
            <translation>设备已是 CPU 时，CPU 卸载不起作用</translation>
        </message>
        <message>
            <source>Gloo (cpu) cannot reduce gradients in bf16; set reduce_dtype to fp32</source>
            <translation>Gloo (cpu) 无法以 bf16 归约梯度；请将 reduce_dtype 设为 fp32</translation>
        </message>
        <message>
            <source>unit &quot;%1&quot; owns no parameters (its children are all units)</source>
            <translation>单元 &quot;%1&quot; 不拥有任何参数（其子模块都是单元）</translation>
        </message>
        <message>
            <source>unknown module &quot;%1&quot;: the model has no module of that name</source>
            <translation>未知模块 &quot;%1&quot;：模型中没有该名称的模块</translation>
        </message>
        <message>
            <source>unknown parameter &quot;%1&quot;</source>
            <translation>未知参数 &quot;%1&quot;</translation>
        </message>
        <message>
            <source>parameter &quot;%1&quot; is tied to &quot;%2&quot; but they fall into different units (%3 and %4); make both modules part of one unit</source>
            <translation>参数 &quot;%1&quot; 与 &quot;%2&quot; 共享权重，但二者位于不同单元（%3 和 %4）；请让两个模块属于同一个单元</translation>
        </message>
        <message>
            <source>prefetch target &quot;%1&quot; is not a shard unit</source>
            <translation>预取目标 &quot;%1&quot; 不是分片单元</translation>
        </message>
        <message>
            <source>a unit cannot prefetch itself</source>
            <translation>单元不能预取自身</translation>
        </message>
        <message>
            <source>%1 must be between 1 and %2, got %3</source>
            <translation>%1 必须介于 1 和 %2 之间，实际为 %3</translation>
        </message>
        <message>
            <source>dim %1 is not divisible by n_heads %2</source>
            <translation>dim %1 不能被 n_heads %2 整除</translation>
        </message>
        <message>
            <source>n_heads %1 is not a multiple of n_kv_heads %2</source>
            <translation>n_heads %1 不是 n_kv_heads %2 的倍数</translation>
        </message>
        <message>
            <source>grouped-query attention (n_kv_heads != n_heads) needs a Llama-form architecture (llama, mistral, qwen2, qwen3)</source>
            <translation>分组查询注意力 (n_kv_heads != n_heads) 需要 Llama 形式的架构 (llama、mistral、qwen2、qwen3)</translation>
        </message>
        <message>
            <source>RoPE needs an even head dimension, got %1</source>
            <translation>RoPE 需要偶数的头维度，实际为 %1</translation>
        </message>
        <message>
            <source>RoPE scaling of type &quot;%1&quot; is not computed by the training core (it computes &quot;llama3&quot;)</source>
            <translation>训练核心不计算类型为“%1”的 RoPE 缩放（它计算“llama3”）</translation>
        </message>
        <message>
            <source>%1 must be %2, got %3</source>
            <translation>%1 必须为 %2，实际为 %3</translation>
        </message>
        <message>
            <source>RoPE scaling needs a Llama-form architecture (llama, mistral, qwen2, qwen3)</source>
            <translation>RoPE 缩放需要 Llama 形式的架构 (llama、mistral、qwen2、qwen3)</translation>
        </message>
        <message>
            <source>%1 needs a Llama-form architecture (llama, mistral, qwen2, qwen3)</source>
            <translation>%1 需要 Llama 形式的架构 (llama、mistral、qwen2、qwen3)</translation>
        </message>
        <message>
            <source>the sequence length %1 exceeds the model&apos;s sliding window of %2 tokens; the training core computes full causal attention, not a sliding window</source>
            <translation>序列长度 %1 超过模型的滑动窗口 %2 个 token；训练核心计算完整的因果注意力，而非滑动窗口</translation>
        </message>
        <message>
            <source>not a shardbench module tree (format must be &quot;shardbench-module-tree&quot;)</source>
            <translation>不是 shardbench 模块树（format 必须为 &quot;shardbench-module-tree&quot;）</translation>
        </message>
        <message>
            <source>unsupported module-tree version (this build reads version 1)</source>
            <translation>不支持的模块树版本（此版本读取版本 1）</translation>
        </message>
        <message>
            <source>&quot;modules&quot; must be a non-empty array, root first</source>
            <translation>&quot;modules&quot; 必须是非空数组，且根在最前</translation>
        </message>
        <message>
            <source>module &quot;%1&quot; is empty or listed twice</source>
            <translation>模块 &quot;%1&quot; 为空或重复列出</translation>
        </message>
        <message>
            <source>module &quot;%1&quot; appears before its parent &quot;%2&quot;</source>
            <translation>模块 &quot;%1&quot; 出现在其父模块 &quot;%2&quot; 之前</translation>
        </message>
        <message>
            <source>&quot;shape&quot; must be an array of non-negative integers</source>
            <translation>&quot;shape&quot; 必须是非负整数数组</translation>
        </message>
        <message>
            <source>tied_to names unknown parameter &quot;%1&quot;</source>
            <translation>tied_to 指向未知参数 &quot;%1&quot;</translation>
        </message>
        <message>
            <source>the model is too large to estimate: its parameter state could reach %1 bytes per rank, above the 2^62 bytes (4 EiB) shardbench models</source>
            <translation>模型过大，无法估算：其参数状态每个 rank 可能达到 %1 字节，超过了 shardbench 可建模的 2^62 字节（4 EiB）</translation>
        </message>
        <message>
            <source>micro_batch x seq_len is too large to estimate: activations could reach %1 bytes per rank, above the 2^62 bytes (4 EiB) shardbench models</source>
            <translation>micro_batch x seq_len 过大，无法估算：激活值每个 rank 可能达到 %1 字节，超过了 shardbench 可建模的 2^62 字节（4 EiB）</translation>
        </message>
        <message>
            <source>%1 is listed as a unit more than once</source>
            <translation>%1 被多次列为单元</translation>
        </message>
        <message>
            <source>parameter &quot;%1&quot; is not inside unit %2, so it cannot ignore it</source>
            <translation>参数 &quot;%1&quot; 不在单元 %2 之内，因此该单元不能忽略它</translation>
        </message>
        <message>
            <source>unit %1 holds parameter &quot;%2&quot;, which unit %3 excludes with ignored_params</source>
            <translation>单元 %1 包含参数 &quot;%2&quot;，而单元 %3 通过 ignored_params 排除了该参数</translation>
        </message>
        <message>
            <source>must be a JSON object</source>
            <translation>必须是 JSON 对象</translation>
        </message>
        <message>
            <source>each unit must be a JSON object</source>
            <translation>每个单元都必须是 JSON 对象</translation>
        </message>
        <message>
            <source>%1 more unknown fields are ignored</source>
            <translation>另有 %1 个未知字段已忽略</translation>
        </message>
        <message>
            <source>%1 must be an integer from %2 to %3, got %4</source>
            <translation>%1 必须是 %2 到 %3 之间的整数，实际为 %4</translation>
        </message>
        <message>
            <source>%1 must be a number, got %2</source>
            <translation>%1 必须是数字，实际为 %2</translation>
        </message>
        <message>
            <source>%1 must be true or false, got %2</source>
            <translation>%1 必须为 true 或 false，实际为 %2</translation>
        </message>
        <message>
            <source>%1 must be a string, got %2</source>
            <translation>%1 必须是字符串，实际为 %2</translation>
        </message>
        <message>
            <source>%1 must be an array of strings</source>
            <translation>%1 必须是字符串数组</translation>
        </message>
        <message>
            <source>unknown dtype %1 (expected fp32, bf16, fp16, fp64 or null)</source>
            <translation>未知 dtype %1（应为 fp32、bf16、fp16、fp64 或 null）</translation>
        </message>
        <message>
            <source>unknown model preset &quot;%1&quot; (known: %2)</source>
            <translation>未知模型预设 &quot;%1&quot;（已知：%2）</translation>
        </message>
        <message>
            <source>unknown architecture &quot;%1&quot; (tutorial, gpt2, llama, imported)</source>
            <translation>未知架构 &quot;%1&quot;（tutorial、gpt2、llama、imported）</translation>
        </message>
        <message>
            <source>an imported model needs its &quot;module_tree&quot;</source>
            <translation>导入的模型需要其 &quot;module_tree&quot;</translation>
        </message>
        <message>
            <source>device must be &quot;cpu&quot; or &quot;cuda&quot;, got &quot;%1&quot;</source>
            <translation>device 必须为 &quot;cpu&quot; 或 &quot;cuda&quot;，实际为 &quot;%1&quot;</translation>
        </message>
        <message>
            <source>%1 must be between 0 and 1e7 GiB</source>
            <translation>%1 必须介于 0 和 1e7 GiB 之间</translation>
        </message>
        <message>
            <source>world_size %1 does not match the mesh: %2 nodes x %3 processes = %4</source>
            <translation>world_size %1 与网格不符：%2 个节点 x %3 个进程 = %4</translation>
        </message>
        <message>
            <source>each unit needs a string &quot;module&quot; (&quot;&quot; is the root)</source>
            <translation>每个单元都需要字符串 &quot;module&quot;（&quot;&quot; 表示根）</translation>
        </message>
        <message>
            <source>reshard_after_forward must be &quot;default&quot;, true, false or a positive integer, got %1</source>
            <translation>reshard_after_forward 必须为 &quot;default&quot;、true、false 或正整数，实际为 %1</translation>
        </message>
        <message>
            <source>activation_checkpointing must be &quot;none&quot; or &quot;full&quot;, got %1</source>
            <translation>activation_checkpointing 必须为 &quot;none&quot; 或 &quot;full&quot;，实际为 %1</translation>
        </message>
        <message>
            <source>only the &quot;adamw&quot; optimizer is supported, got &quot;%1&quot;</source>
            <translation>仅支持 &quot;adamw&quot; 优化器，实际为 &quot;%1&quot;</translation>
        </message>
        <message>
            <source>betas must be an array of two numbers</source>
            <translation>betas 必须是包含两个数字的数组</translation>
        </message>
        <message>
            <source>data kind must be synthetic, tokens or text, got &quot;%1&quot;</source>
            <translation>数据类型必须为 synthetic、tokens 或 text，实际为 &quot;%1&quot;</translation>
        </message>
        <message>
            <source>token dtype must be auto, uint16 or uint32, got &quot;%1&quot;</source>
            <translation>token 类型必须为 auto、uint16 或 uint32，实际为“%1”</translation>
        </message>
        <message>
            <source>a plan must be a JSON object</source>
            <translation>计划必须是 JSON 对象</translation>
        </message>
        <message>
            <source>&quot;units&quot; must be an array</source>
            <translation>&quot;units&quot; 必须是数组</translation>
        </message>
        <message>
            <source>cannot read %1: %2</source>
            <translation>无法读取 %1：%2</translation>
        </message>
        <message>
            <source>%1 is larger than 64 MiB; not a plan</source>
            <translation>%1 大于 64 MiB；不是计划文件</translation>
        </message>
        <message>
            <source>%1 contains a control character (%2): names and paths are one line of printable text</source>
            <translation>%1 包含控制字符（%2）：名称和路径必须是一行可打印文本</translation>
        </message>
        <message>
            <source>the module tree must be a JSON object</source>
            <translation>模块树必须是 JSON 对象</translation>
        </message>
        <message>
            <source>each module needs a string &quot;name&quot;</source>
            <translation>每个模块都需要字符串 &quot;name&quot;</translation>
        </message>
        <message>
            <source>the first module must be the root, named &quot;&quot;</source>
            <translation>第一个模块必须是根，名称为 &quot;&quot;</translation>
        </message>
        <message>
            <source>&quot;params&quot; must be an array</source>
            <translation>&quot;params&quot; 必须是数组</translation>
        </message>
        <message>
            <source>each parameter needs a non-empty string &quot;name&quot;</source>
            <translation>每个参数都需要非空字符串 &quot;name&quot;</translation>
        </message>
        <message>
            <source>parameter has more than 2^40 elements</source>
            <translation>参数的元素多于 2^40 个</translation>
        </message>
        <message>
            <source>unknown dtype %1 (expected float32, bfloat16, float16 or float64)</source>
            <translation>未知 dtype %1（应为 float32、bfloat16、float16 或 float64）</translation>
        </message>
        <message>
            <source>tied parameter shapes differ from &quot;%1&quot;</source>
            <translation>共享权重的参数形状与 &quot;%1&quot; 不同</translation>
        </message>
        <message>
            <source>&quot;%1&quot;</source>
            <translation>“%1”</translation>
        </message>
        <message>
            <source>the root</source>
            <translation>根</translation>
        </message>
        <message>
            <source>Error</source>
            <translation>错误</translation>
        </message>
        <message>
            <source>Warning</source>
            <translation>警告</translation>
        </message>
        <message>
            <source>does not fit: rank %1 needs %2 at its peak, %3 more than the %4 of a %5</source>
            <translation>放不下：rank %1 峰值需要 %2，比 %5 的 %4 多 %3</translation>
        </message>
    </context>
    <context>
        <name>sb::gui::ProblemsModel</name>
        <message>
            <source>(root)</source>
            <translation>（根）</translation>
        </message>
        <message>
            <source>Severity</source>
            <translation>严重程度</translation>
        </message>
        <message>
            <source>Path</source>
            <translation>路径</translation>
        </message>
        <message>
            <source>Module</source>
            <translation>模块</translation>
        </message>
        <message>
            <source>Problem</source>
            <translation>问题</translation>
        </message>
    </context>
    <context>
        <name>sb::gui::ProblemsPanel</name>
        <message>
            <source>No problems: the plan is valid.</source>
            <translation>没有问题：计划有效。</translation>
        </message>
        <message numerus="yes">
            <source>%n error(s)</source>
            <translation>
                <numerusform>%n 个错误</numerusform>
            </translation>
        </message>
        <message numerus="yes">
            <source>%n warning(s)</source>
            <translation>
                <numerusform>%n 个警告</numerusform>
            </translation>
        </message>
    </context>
    <context>
        <name>sb::gui::RankChart</name>
        <message>
            <source>Peak memory per rank</source>
            <translation>每个 rank 的峰值内存</translation>
        </message>
        <message numerus="yes">
            <source>Peak memory per rank: %n rank(s)</source>
            <translation>
                <numerusform>每个 rank 的峰值内存：%n 个 rank</numerusform>
            </translation>
        </message>
        <message numerus="yes">
            <source> in %n group(s) of identical ranks</source>
            <translation>
                <numerusform>，分为 %n 组相同的 rank</numerusform>
            </translation>
        </message>
        <message>
            <source> (the %1 highest shown)</source>
            <translation>（显示最高的 %1 组）</translation>
        </message>
        <message>
            <source>OVER CAPACITY by %1</source>
            <translation>超出容量 %1</translation>
        </message>
        <message>
            <source>Capacity</source>
            <translation>容量</translation>
        </message>
        <message>
            <source>GiB</source>
            <translation>GiB</translation>
        </message>
        <message>
            <source>Ranks</source>
            <translation>Rank</translation>
        </message>
        <message numerus="yes">
            <source>Ranks %1 (%n rank(s))</source>
            <translation>
                <numerusform>Rank %1（%n 个 rank）</numerusform>
            </translation>
        </message>
        <message>
            <source>%1: %2</source>
            <translation>%1：%2</translation>
        </message>
        <message>
            <source>Peak: %1 of %2</source>
            <translation>峰值：%1 / %2</translation>
        </message>
        <message>
            <source>Offloaded to host: %1</source>
            <translation>卸载到主机：%1</translation>
        </message>
    </context>
    <context>
        <name>sb::gui::RankGroups</name>
        <message numerus="yes">
            <source>, … (%n run(s))</source>
            <translation>
                <numerusform>，…（共 %n 段）</numerusform>
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
            <translation>每个 rank 的内存</translation>
        </message>
        <message>
            <source>Memory per rank: peak %1 measured, %2 estimated (%3%4 %)</source>
            <translation>每个 rank 的内存：实测峰值 %1，估算 %2（%3%4 %）</translation>
        </message>
        <message>
            <source>Peak %1 measured, %2 estimated (%3%4 %)</source>
            <translation>实测峰值 %1，估算 %2（%3%4 %）</translation>
        </message>
        <message>
            <source> (first %1 ranks)</source>
            <translation>（前 %1 个 rank）</translation>
        </message>
        <message>
            <source>Current</source>
            <translation>当前</translation>
        </message>
        <message>
            <source>Peak (measured)</source>
            <translation>峰值（实测）</translation>
        </message>
        <message>
            <source>Peak (estimated for this plan)</source>
            <translation>峰值（此计划的估算）</translation>
        </message>
        <message>
            <source>Rank</source>
            <translation>Rank</translation>
        </message>
    </context>
    <context>
        <name>sb::gui::MemorySystemTabs</name>
        <message>
            <source>Memory</source>
            <translation>内存</translation>
        </message>
        <message>
            <source>System</source>
            <translation>系统</translation>
        </message>
        <message>
            <source>Each rank&apos;s CPU utilisation and host memory, and on CUDA its GPU&apos;s utilisation, power, temperature and SM clock</source>
            <translation>每个 rank 的 CPU 利用率和主机内存；在 CUDA 上还有其 GPU 的利用率、功率、温度和 SM 时钟</translation>
        </message>
    </context>
    <context>
        <name>sb::gui::SystemChart</name>
        <message>
            <source>Show</source>
            <translation>显示</translation>
        </message>
        <message>
            <source>CPU utilisation</source>
            <translation>CPU 利用率</translation>
        </message>
        <message>
            <source>Host memory (RSS)</source>
            <translation>主机内存（RSS）</translation>
        </message>
        <message>
            <source>GPU utilisation</source>
            <translation>GPU 利用率</translation>
        </message>
        <message>
            <source>GPU power</source>
            <translation>GPU 功率</translation>
        </message>
        <message>
            <source>GPU temperature</source>
            <translation>GPU 温度</translation>
        </message>
        <message>
            <source>GPU SM clock</source>
            <translation>GPU SM 时钟</translation>
        </message>
        <message>
            <source>% of one core</source>
            <translation>单个核心的 %</translation>
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
            <translation>系统：每个 rank 的%1</translation>
        </message>
        <message>
            <source>System: no samples (the ranks send them every few seconds; SB_SYSTEM_SAMPLE_S sets how often)</source>
            <translation>系统：没有采样（各 rank 每隔几秒发送一次；SB_SYSTEM_SAMPLE_S 设置频率）</translation>
        </message>
        <message>
            <source>Time</source>
            <translation>时间</translation>
        </message>
        <message>
            <source>rank %1</source>
            <translation>rank %1</translation>
        </message>
    </context>
    <context>
        <name>sb::gui::RecentFiles</name>
        <message>
            <source>No recent plans</source>
            <translation>没有最近的计划</translation>
        </message>
        <message>
            <source>Clear list</source>
            <translation>清空列表</translation>
        </message>
    </context>
    <context>
        <name>sb::gui::RestoreDialog</name>
        <message>
            <source>Restore</source>
            <translation>恢复</translation>
        </message>
        <message>
            <source>Restore a checkpoint as a new run</source>
            <translation>将检查点恢复为新运行</translation>
        </message>
        <message>
            <source>no checkpoints</source>
            <translation>不保存检查点</translation>
        </message>
        <message>
            <source>%1, resumed at step %2</source>
            <translation>%1，从第 %2 步继续</translation>
        </message>
        <message numerus="yes">
            <source>Checkpoint of %1 at step %2, saved by %n rank(s). Loading it reshards the parameters and optimizer state to the world size you choose.</source>
            <translation>
                <numerusform>%1 在第 %2 步的检查点，由 %n 个 rank 保存。加载时会将参数和优化器状态重新分片到您选择的 world size。</numerusform>
            </translation>
        </message>
        <message>
            <source>World size</source>
            <translation>进程总数</translation>
        </message>
        <message>
            <source>Run on</source>
            <translation>运行于</translation>
        </message>
        <message>
            <source>Mesh</source>
            <translation>网格</translation>
        </message>
        <message>
            <source>Train until step</source>
            <translation>训练至第几步</translation>
        </message>
        <message>
            <source>Save checkpoints in</source>
            <translation>检查点保存位置</translation>
        </message>
        <message>
            <source>Name</source>
            <translation>名称</translation>
        </message>
        <message>
            <source>The checkpoint cannot be read: %1</source>
            <translation>无法读取检查点：%1</translation>
        </message>
        <message>
            <source>Choose at least one host.</source>
            <translation>请至少选择一台主机。</translation>
        </message>
        <message numerus="yes">
            <source>%1 ranks cannot be spread evenly over %n host(s).</source>
            <translation>
                <numerusform>%1 个 rank 无法平均分布到 %n 台主机上。</numerusform>
            </translation>
        </message>
        <message numerus="yes">
            <source>%n node(s)</source>
            <translation>
                <numerusform>%n 个节点</numerusform>
            </translation>
        </message>
        <message numerus="yes">
            <source>%n process(es) per node</source>
            <translation>
                <numerusform>每节点 %n 个进程</numerusform>
            </translation>
        </message>
        <message numerus="yes">
            <source>%n replica(s) (HSDP)</source>
            <translation>
                <numerusform>%n 个副本（HSDP）</numerusform>
            </translation>
        </message>
        <message>
            <source>The plan&apos;s exported FSDP2 script loads it with torch.distributed.checkpoint.</source>
            <translation>计划导出的 FSDP2 脚本用 torch.distributed.checkpoint 加载它。</translation>
        </message>
        <message>
            <source>%1 loads it, given its folder in SHARDBENCH_RESUME_FROM.</source>
            <translation>%1 加载它，其文件夹由 SHARDBENCH_RESUME_FROM 给出。</translation>
        </message>
    </context>
    <context>
        <name>sb::gui::RunAreas</name>
        <message>
            <source>Launch despite the memory estimate?</source>
            <translation>不顾内存估算仍要启动吗？</translation>
        </message>
        <message>
            <source>%1

The ranks would probably run out of memory. Launch anyway?</source>
            <translation>%1

各 rank 很可能会耗尽内存。仍要启动吗？</translation>
        </message>
        <message>
            <source>Launch anyway</source>
            <translation>仍然启动</translation>
        </message>
        <message>
            <source>Do not launch</source>
            <translation>不启动</translation>
        </message>
        <message>
            <source>Every check passed.</source>
            <translation>所有检查均已通过。</translation>
        </message>
        <message>
            <source>Run %1 %2.</source>
            <translation>运行 %1：%2。</translation>
        </message>
        <message>
            <source>Run %1 finished: %2</source>
            <translation>运行 %1 已结束：%2</translation>
        </message>
        <message>
            <source>Run %1 started: %2</source>
            <translation>运行 %1 已启动：%2</translation>
        </message>
        <message>
            <source>Restoring run %1 from %2</source>
            <translation>正在从 %2 恢复运行 %1</translation>
        </message>
        <message>
            <source>Run %1 was not restored from %2.</source>
            <translation>运行 %1 未从 %2 恢复。</translation>
        </message>
        <message>
            <source>PNG image (*.png)</source>
            <translation>PNG 图像 (*.png)</translation>
        </message>
        <message>
            <source>SVG drawing (*.svg)</source>
            <translation>SVG 矢量图 (*.svg)</translation>
        </message>
        <message>
            <source>CSV table (*.csv)</source>
            <translation>CSV 表格 (*.csv)</translation>
        </message>
        <message>
            <source>Export the chart</source>
            <translation>导出图表</translation>
        </message>
        <message>
            <source>Export</source>
            <translation>导出</translation>
        </message>
        <message>
            <source>Wrote %1</source>
            <translation>已写入 %1</translation>
        </message>
        <message>
            <source>Cluster</source>
            <translation>集群</translation>
        </message>
        <message>
            <source>Run</source>
            <translation>运行</translation>
        </message>
        <message>
            <source>Runs</source>
            <translation>运行记录</translation>
        </message>
        <message>
            <source>Checkpoints</source>
            <translation>检查点</translation>
        </message>
        <message>
            <source>attaching to %1</source>
            <translation>正在附加到 %1</translation>
        </message>
        <message>
            <source>attached: %1</source>
            <translation>已附加：%1</translation>
        </message>
        <message>
            <source>Run %1 was not stopped: %2</source>
            <translation>运行 %1 未能停止：%2</translation>
        </message>
        <message>
            <source>Following run %1 on %2; it goes on when the workbench closes.</source>
            <translation>正在跟踪 %2 上的运行 %1；工作台关闭后它会继续运行。</translation>
        </message>
        <message>
            <source>Run %1 cannot be followed: %2</source>
            <translation>无法跟踪运行 %1：%2</translation>
        </message>
        <message>
            <source>Detached from run %1; it goes on (Runs: Attach follows it again).</source>
            <translation>已从运行 %1 分离；它会继续运行（运行记录：附加 可再次跟踪）。</translation>
        </message>
        <message>
            <source>The log of rank %1 cannot be fetched: %2</source>
            <translation>无法获取 rank %1 的日志：%2</translation>
        </message>
    </context>
    <context>
        <name>sb::gui::RunConfigText</name>
        <message>
            <source>the initial weights cannot start this plan's model: %1</source>
            <translation>初始权重无法用于此计划的模型：%1</translation>
        </message>
        <message>
            <source>the initial weights path must not start with '-'</source>
            <translation>初始权重路径不能以 '-' 开头</translation>
        </message>
        <message>
            <source>the initial weights path contains a NUL character</source>
            <translation>初始权重路径包含 NUL 字符</translation>
        </message>
        <message>
            <source>no plan file given</source>
            <translation>未指定计划文件</translation>
        </message>
        <message>
            <source>max restarts must be 0 to %1</source>
            <translation>最大重启次数必须在 0 到 %1 之间</translation>
        </message>
        <message>
            <source>the master port must be 1 to 65535</source>
            <translation>主端口必须在 1 到 65535 之间</translation>
        </message>
        <message>
            <source>the stop grace must be 0 to %1 ms</source>
            <translation>停止宽限时间必须在 0 到 %1 毫秒之间</translation>
        </message>
        <message>
            <source>the stop deadline must exceed the grace by 500 ms</source>
            <translation>停止截止时间必须比宽限时间长 500 毫秒</translation>
        </message>
        <message>
            <source>the run name is longer than %1 characters</source>
            <translation>运行名称超过 %1 个字符</translation>
        </message>
        <message>
            <source>the run name contains a NUL character</source>
            <translation>运行名称包含 NUL 字符</translation>
        </message>
        <message>
            <source>the resume folder contains a NUL character</source>
            <translation>恢复文件夹包含 NUL 字符</translation>
        </message>
        <message>
            <source>--master-addr &quot;%1&quot; is not a host name or address (letters, digits, &apos;.&apos;, &apos;-&apos;, &apos;_&apos;; an IPv6 address in brackets)</source>
            <translation>--master-addr “%1” 不是主机名或地址（字母、数字、&apos;.&apos;、&apos;-&apos;、&apos;_&apos;；IPv6 地址需放在方括号中）</translation>
        </message>
        <message>
            <source>&quot;%1&quot; is not a valid environment variable name</source>
            <translation>&quot;%1&quot; 不是有效的环境变量名</translation>
        </message>
        <message>
            <source>an environment value contains a NUL character</source>
            <translation>某个环境变量的值包含 NUL 字符</translation>
        </message>
        <message>
            <source>no shardbench-core path given</source>
            <translation>未指定 shardbench-core 路径</translation>
        </message>
        <message>
            <source>the shardbench-core path contains a NUL character</source>
            <translation>shardbench-core 路径包含 NUL 字符</translation>
        </message>
        <message>
            <source>the working folder contains a NUL character</source>
            <translation>工作文件夹包含 NUL 字符</translation>
        </message>
        <message>
            <source>the shardbench-core path must not start with &apos;-&apos;</source>
            <translation>shardbench-core 路径不能以 &apos;-&apos; 开头</translation>
        </message>
        <message>
            <source>no Python given for the PyTorch engine</source>
            <translation>未为 PyTorch 引擎指定 Python</translation>
        </message>
        <message>
            <source>the Python path must not contain &apos;=&apos; or start with &apos;-&apos;</source>
            <translation>Python 路径不能包含 &apos;=&apos; 或以 &apos;-&apos; 开头</translation>
        </message>
        <message>
            <source>the Python path contains a NUL character</source>
            <translation>Python 路径包含 NUL 字符</translation>
        </message>
        <message>
            <source>the training script or one of its arguments contains a NUL character</source>
            <translation>训练脚本或其某个参数包含 NUL 字符</translation>
        </message>
        <message>
            <source>the training script path must not start with &apos;-&apos;</source>
            <translation>训练脚本路径不能以 &apos;-&apos; 开头</translation>
        </message>
        <message>
            <source>a training script runs with the PyTorch engine only (--engine pytorch)</source>
            <translation>训练脚本只能用 PyTorch 引擎运行（--engine pytorch）</translation>
        </message>
        <message>
            <source>the training script %1 does not exist</source>
            <translation>训练脚本 %1 不存在</translation>
        </message>
        <message>
            <source>an SSH run needs at least one host</source>
            <translation>SSH 运行至少需要一台主机</translation>
        </message>
        <message>
            <source>no remote shardbench-core given</source>
            <translation>未指定远程 shardbench-core</translation>
        </message>
        <message>
            <source>the remote core path must not contain &apos;=&apos; or start with &apos;-&apos;</source>
            <translation>远程 core 路径不能包含 &apos;=&apos; 或以 &apos;-&apos; 开头</translation>
        </message>
        <message>
            <source>no remote run folder given</source>
            <translation>未指定远程运行文件夹</translation>
        </message>
        <message>
            <source>the remote core path contains a NUL character</source>
            <translation>远程 core 路径包含 NUL 字符</translation>
        </message>
        <message>
            <source>the remote run folder contains a NUL character</source>
            <translation>远程运行文件夹包含 NUL 字符</translation>
        </message>
        <message>
            <source>the remote working folder contains a NUL character</source>
            <translation>远程工作文件夹包含 NUL 字符</translation>
        </message>
        <message>
            <source>the SSH connect timeout must be 1 to %1 s</source>
            <translation>SSH 连接超时必须在 1 到 %1 秒之间</translation>
        </message>
        <message>
            <source>the SSH keepalive interval must be 1 to %1 s</source>
            <translation>SSH 保活间隔必须在 1 到 %1 秒之间</translation>
        </message>
        <message>
            <source>the SSH liveness timeout must exceed the keepalive interval and be at most %1 s</source>
            <translation>SSH 存活超时必须大于保活间隔且不超过 %1 秒</translation>
        </message>
        <message>
            <source>the number of SSH connect tries must be 1 to %1</source>
            <translation>SSH 连接尝试次数必须在 1 到 %1 之间</translation>
        </message>
        <message>
            <source>the plan file %1 does not exist</source>
            <translation>计划文件 %1 不存在</translation>
        </message>
        <message>
            <source>cannot read the plan file %1: %2</source>
            <translation>无法读取计划文件 %1：%2</translation>
        </message>
        <message>
            <source>the plan file %1 is larger than 64 MiB</source>
            <translation>计划文件 %1 大于 64 MiB</translation>
        </message>
        <message>
            <source>%1: %2</source>
            <translation>%1：%2</translation>
        </message>
        <message>
            <source>srun is not on PATH: Slurm runs start from a machine of the cluster (a login node)</source>
            <translation>PATH 中没有 srun：Slurm 运行需从集群中的机器（登录节点）启动</translation>
        </message>
        <message>
            <source>the hosts provide %1 slots [%2] but the plan&apos;s mesh needs %3 ranks (%4 nodes x %5 procs per node)</source>
            <translation>这些主机提供 %1 个槽位 [%2]，但计划的网格需要 %3 个 rank（%4 个节点 x 每节点 %5 个进程）</translation>
        </message>
        <message>
            <source>the plan&apos;s mesh has %1 nodes but the run uses %2 hosts</source>
            <translation>计划的网格有 %1 个节点，但运行使用 %2 台主机</translation>
        </message>
        <message>
            <source>the estimated peak of rank %1 is %2 but a rank has %3 (the plan&apos;s device memory): it would run out of memory (--ignore-memory-estimate launches it anyway)</source>
            <translation>rank %1 的估计峰值为 %2，但每个 rank 只有 %3（计划的设备内存）：将会内存不足（--ignore-memory-estimate 仍会启动）</translation>
        </message>
        <message>
            <source>the estimated peak of rank %1 is %2 but a rank has %3 (this machine&apos;s available memory shared by its ranks): it would run out of memory (--ignore-memory-estimate launches it anyway)</source>
            <translation>rank %1 的估计峰值为 %2，但每个 rank 只有 %3（本机可用内存由其各 rank 分摊）：将会内存不足（--ignore-memory-estimate 仍会启动）</translation>
        </message>
        <message>
            <source>the estimated peak of rank %1 is %2 but a rank has %3 (the plan&apos;s device memory); launched anyway (--ignore-memory-estimate)</source>
            <translation>rank %1 的估计峰值为 %2，但每个 rank 只有 %3（计划的设备内存）；仍已启动（--ignore-memory-estimate）</translation>
        </message>
        <message>
            <source>the estimated peak of rank %1 is %2 but a rank has %3 (this machine&apos;s available memory shared by its ranks); launched anyway (--ignore-memory-estimate)</source>
            <translation>rank %1 的估计峰值为 %2，但每个 rank 只有 %3（本机可用内存由其各 rank 分摊）；仍已启动（--ignore-memory-estimate）</translation>
        </message>
        <message>
            <source>the plan runs on cuda but %1 was built without CUDA (%2)</source>
            <translation>计划在 cuda 上运行，但 %1 构建时未启用 CUDA（%2）</translation>
        </message>
        <message>
            <source>%1 --version printed more than %2 and was stopped: the core&apos;s output was too long (is it shardbench-core?)</source>
            <translation>%1 --version 输出超过 %2，已被停止：核心的输出过长（它是 shardbench-core 吗？）</translation>
        </message>
        <message>
            <source>the plan runs %1 CUDA rank(s) on this machine, which has %2 GPU(s)</source>
            <translation>计划在本机运行 %1 个 CUDA rank，而本机有 %2 块 GPU</translation>
        </message>
        <message>
            <source>the plan runs %1 ranks on this machine, which has %2 core(s): at most %3 ranks per core can make progress</source>
            <translation>计划在本机运行 %1 个 rank，而本机有 %2 个核心：每个核心最多 %3 个 rank 才能推进</translation>
        </message>
        <message>
            <source>%1 ranks share %2 core(s): each step will be slow</source>
            <translation>%1 个 rank 共用 %2 个核心：每一步都会很慢</translation>
        </message>
        <message>
            <source>the checkpoint folder %1 cannot be created (%2 is not writable)</source>
            <translation>无法创建检查点文件夹 %1（%2 不可写）</translation>
        </message>
        <message>
            <source>the checkpoint folder %1 cannot be created (%2 is not a folder)</source>
            <translation>无法创建检查点文件夹 %1（%2 不是文件夹）</translation>
        </message>
        <message>
            <source>the checkpoint folder %1 is not writable: %2</source>
            <translation>检查点文件夹 %1 不可写：%2</translation>
        </message>
        <message>
            <source>the checkpoint folder %1 has %2 free but one checkpoint takes about %3</source>
            <translation>检查点文件夹 %1 剩余 %2，但一个检查点约需 %3</translation>
        </message>
        <message>
            <source>--partition &quot;%1&quot; is not a partition name (letters, digits, &apos;.&apos;, &apos;-&apos;, &apos;_&apos;; a list separated by commas)</source>
            <translation>--partition “%1” 不是分区名（字母、数字、&apos;.&apos;、&apos;-&apos;、&apos;_&apos;；多个时以逗号分隔）</translation>
        </message>
        <message>
            <source>--account &quot;%1&quot; is not an account name (letters, digits, &apos;.&apos;, &apos;-&apos;, &apos;_&apos;)</source>
            <translation>--account “%1” 不是账户名（字母、数字、&apos;.&apos;、&apos;-&apos;、&apos;_&apos;）</translation>
        </message>
        <message>
            <source>--time &quot;%1&quot; is not a Slurm time limit (MM, MM:SS, HH:MM:SS, D-HH, D-HH:MM, D-HH:MM:SS or UNLIMITED)</source>
            <translation>--time “%1” 不是 Slurm 时间限制（MM、MM:SS、HH:MM:SS、D-HH、D-HH:MM、D-HH:MM:SS 或 UNLIMITED）</translation>
        </message>
        <message>
            <source>--slurm-arg &quot;%1&quot; is not an srun option in its long form (--name or --name=value)</source>
            <translation>--slurm-arg “%1” 不是长格式的 srun 选项（--name 或 --name=value）</translation>
        </message>
        <message>
            <source>--slurm-arg contains a NUL character</source>
            <translation>--slurm-arg 含有 NUL 字符</translation>
        </message>
        <message>
            <source>--slurm-arg %1: shardbench sets --%2 itself</source>
            <translation>--slurm-arg %1：shardbench 自行设置 --%2</translation>
        </message>
        <message>
            <source>--slurm-arg %1: shardbench sets --%2 itself; use --%2 instead</source>
            <translation>--slurm-arg %1：shardbench 自行设置 --%2；请改用 --%2</translation>
        </message>
        <message>
            <source>%1 &quot;%2&quot; cannot be written in a batch script: it contains %3</source>
            <translation>%1 &quot;%2&quot; 无法写入批处理脚本：其中包含 %3</translation>
        </message>
        <message>
            <source>empty host name</source>
            <translation>主机名为空</translation>
        </message>
        <message>
            <source>host name &quot;%1...&quot; is longer than 255 characters</source>
            <translation>主机名 “%1...” 超过 255 个字符</translation>
        </message>
        <message>
            <source>host name &quot;%1&quot; contains more than one &apos;@&apos;</source>
            <translation>主机名 “%1” 含有多个 &apos;@&apos;</translation>
        </message>
        <message>
            <source>host name &quot;%1&quot; has an empty user, host or address part</source>
            <translation>主机名 “%1” 的用户、主机或地址部分为空</translation>
        </message>
        <message>
            <source>host name &quot;%1&quot; must not start with &apos;-&apos; (nor its part after &apos;@&apos;)</source>
            <translation>主机名 “%1” 不能以 &apos;-&apos; 开头（&apos;@&apos; 之后的部分也不能）</translation>
        </message>
        <message>
            <source>host name &quot;%1&quot; contains %2, which is not allowed (letters, digits, &apos;.&apos;, &apos;-&apos; and &apos;_&apos; only)</source>
            <translation>主机名 “%1” 含有不允许的 %2（只允许字母、数字、&apos;.&apos;、&apos;-&apos; 和 &apos;_&apos;）</translation>
        </message>
        <message>
            <source>cannot create the launch folder %1</source>
            <translation>无法创建启动文件夹 %1</translation>
        </message>
        <message>
            <source>the plan for the ranks was not written: %1</source>
            <translation>未能为各 rank 写入计划：%1</translation>
        </message>
        <message>
            <source>%1 is not a DCP checkpoint (a step-NNNNNN folder holding .metadata): a PyTorch run resumes from torch.distributed.checkpoint</source>
            <translation>%1 不是 DCP 检查点（含 .metadata 的 step-NNNNNN 文件夹）：PyTorch 运行从 torch.distributed.checkpoint 继续</translation>
        </message>
    </context>
    <context>
        <name>sb::gui::RunController</name>
        <message>
            <source>The SSH config for the hosts added by hand cannot be written: %1</source>
            <translation>无法写入手动添加主机的 SSH 配置：%1</translation>
        </message>
        <message>
            <source>The pre-flight checks failed; nothing was started.</source>
            <translation>启动前检查未通过；未启动任何内容。</translation>
        </message>
        <message>
            <source>The run store %1 cannot be opened: %2</source>
            <translation>无法打开运行存储 %1：%2</translation>
        </message>
        <message>
            <source>The run cannot be recorded: %1</source>
            <translation>无法记录此运行：%1</translation>
        </message>
        <message>
            <source>The run cannot be detached: %1</source>
            <translation>无法分离运行：%1</translation>
        </message>
        <message>
            <source>The detached run did not start: %1</source>
            <translation>分离运行未能启动：%1</translation>
        </message>
        <message>
            <source>Cannot attach to the run: %1</source>
            <translation>无法附加到该运行：%1</translation>
        </message>
        <message>
            <source>A run launched from the workbench is in progress; stop it or wait for it to end first.</source>
            <translation>一个从工作台启动的运行正在进行；请先停止它或等待其结束。</translation>
        </message>
        <message>
            <source>Run %1 is being followed in the Run area; detach from it or stop it first.</source>
            <translation>正在“运行”区域中跟踪运行 %1；请先与其分离或停止它。</translation>
        </message>
    </context>
    <context>
        <name>sb::gui::RunText</name>
        <message>
            <source>abandoned</source>
            <translation>已遗弃</translation>
        </message>
        <message>
            <source>running on the cluster — not attached</source>
            <translation>在集群上运行 — 未连接</translation>
        </message>
        <message>
            <source>starting</source>
            <translation>启动中</translation>
        </message>
        <message>
            <source>running</source>
            <translation>运行中</translation>
        </message>
        <message>
            <source>completed</source>
            <translation>已完成</translation>
        </message>
        <message>
            <source>failed</source>
            <translation>失败</translation>
        </message>
        <message>
            <source>cancelled</source>
            <translation>已取消</translation>
        </message>
        <message>
            <source>%1 s</source>
            <translation>%1 秒</translation>
        </message>
        <message>
            <source>%1 min %2 s</source>
            <translation>%1 分 %2 秒</translation>
        </message>
        <message>
            <source>%1 h %2 min</source>
            <translation>%1 小时 %2 分</translation>
        </message>
        <message>
            <source>%1 tokens/s</source>
            <translation>%1 词元/秒</translation>
        </message>
        <message>
            <source>%1 × %2 ranks</source>
            <translation>%1 × %2 个 rank</translation>
        </message>
        <message>
            <source>, %1 replicas</source>
            <translation>，%1 个副本</translation>
        </message>
        <message numerus="yes">
            <source>%1, %n unit(s), %2</source>
            <translation>
                <numerusform>%1，%n 个单元，%2</numerusform>
            </translation>
        </message>
        <message>
            <source>running on the cluster — attached</source>
            <translation>在集群上运行 — 已附加</translation>
        </message>
    </context>
    <context>
        <name>sb::gui::RunsController</name>
        <message>
            <source>Cannot read the run store: %1</source>
            <translation>无法读取运行存储：%1</translation>
        </message>
        <message numerus="yes">
            <source>%n run(s) in %1</source>
            <translation>
                <numerusform>%1 中共 %n 个运行</numerusform>
            </translation>
        </message>
        <message numerus="yes">
            <source>%n detached run(s) could not be reached: %1</source>
            <translation>
                <numerusform>%n 个分离运行无法连接：%1</numerusform>
            </translation>
        </message>
        <message numerus="yes">
            <source>Catching up with %n detached run(s)…</source>
            <translation>
                <numerusform>正在同步 %n 个分离运行…</numerusform>
            </translation>
        </message>
        <message>
            <source>The run store cannot be written: %1</source>
            <translation>无法写入运行存储：%1</translation>
        </message>
        <message>
            <source>There is no run %1 in the store.</source>
            <translation>存储中没有运行 %1。</translation>
        </message>
        <message>
            <source>Run %1 has not ended: stop it before deleting it.</source>
            <translation>运行 %1 尚未结束：请先停止再删除。</translation>
        </message>
        <message>
            <source>Run %1</source>
            <translation>运行 %1</translation>
        </message>
        <message>
            <source>Delete run(s) %1 from the run store? Their metrics, logs, events and checkpoint records go and cannot be restored. Checkpoint files stay where they are on disk: delete those folders yourself if you no longer need them.</source>
            <translation>从运行存储中删除运行 %1？它们的指标、日志、事件和检查点记录将被删除且无法恢复。检查点文件仍保留在磁盘上：如不再需要，请自行删除这些文件夹。</translation>
        </message>
        <message>
            <source>Delete runs</source>
            <translation>删除运行</translation>
        </message>
    </context>
    <context>
        <name>sb::gui::RunsGroupProxy</name>
        <message>
            <source>not known</source>
            <translation>未知</translation>
        </message>
        <message>
            <source>, best final loss %1</source>
            <translation>，最佳最终损失 %1</translation>
        </message>
        <message numerus="yes">
            <source>%1: %2 — %n run(s)</source>
            <translation>
                <numerusform>%1：%2 — %n 次运行</numerusform>
            </translation>
        </message>
    </context>
    <context>
        <name>sb::gui::ParallelCoordinates</name>
        <message>
            <source>No run to draw yet: each run the table lists appears here as a line once its plan has been read.</source>
            <translation>尚无可绘制的运行：表格列出的每次运行在读取其计划后都会以一条线显示在这里。</translation>
        </message>
        <message>
            <source>Colour: final loss, blue the lowest, red the highest, grey none. Click a line to select its run (Ctrl+click adds it); drag along an axis to select the runs in a range.</source>
            <translation>颜色：最终损失，蓝色最低，红色最高，灰色表示无。单击一条线选择其运行（Ctrl+单击添加）；沿坐标轴拖动选择范围内的运行。</translation>
        </message>
    </context>
    <context>
        <name>sb::gui::RunsModel</name>
        <message>
            <source>%1 (rank %2)</source>
            <translation>%1（rank %2）</translation>
        </message>
        <message>
            <source>rank %1: %2</source>
            <translation>rank %1：%2</translation>
        </message>
        <message>
            <source>Run %1 (%2)</source>
            <translation>运行 %1（%2）</translation>
        </message>
        <message>
            <source>Resumed from run %1: %2</source>
            <translation>从运行 %1 继续：%2</translation>
        </message>
        <message>
            <source>Run</source>
            <translation>运行</translation>
        </message>
        <message>
            <source>Name</source>
            <translation>名称</translation>
        </message>
        <message>
            <source>Status</source>
            <translation>状态</translation>
        </message>
        <message>
            <source>Reason</source>
            <translation>原因</translation>
        </message>
        <message>
            <source>World size</source>
            <translation>进程总数</translation>
        </message>
        <message>
            <source>Plan</source>
            <translation>计划</translation>
        </message>
        <message>
            <source>Started</source>
            <translation>开始时间</translation>
        </message>
        <message>
            <source>Duration</source>
            <translation>时长</translation>
        </message>
        <message>
            <source>Final loss</source>
            <translation>最终损失</translation>
        </message>
        <message>
            <source>Tokens/s</source>
            <translation>词元/秒</translation>
        </message>
        <message>
            <source>Peak memory per rank</source>
            <translation>每个 rank 的峰值内存</translation>
        </message>
        <message>
            <source>Tags</source>
            <translation>标签</translation>
        </message>
        <message>
            <source>mixed</source>
            <translation>混合</translation>
        </message>
        <message>
            <source>own</source>
            <translation>自身</translation>
        </message>
        <message>
            <source>yes</source>
            <translation>是</translation>
        </message>
        <message>
            <source>no</source>
            <translation>否</translation>
        </message>
        <message>
            <source>Reshard</source>
            <translation>重新分片</translation>
        </message>
        <message>
            <source>Param dtype</source>
            <translation>参数数据类型</translation>
        </message>
        <message>
            <source>Reduce dtype</source>
            <translation>归约数据类型</translation>
        </message>
        <message>
            <source>CPU offload</source>
            <translation>CPU 卸载</translation>
        </message>
        <message>
            <source>Micro-batch</source>
            <translation>微批次</translation>
        </message>
        <message>
            <source>Global batch (tokens)</source>
            <translation>全局批次（词元）</translation>
        </message>
        <message>
            <source>Learning rate</source>
            <translation>学习率</translation>
        </message>
        <message>
            <source>Eval loss</source>
            <translation>验证损失</translation>
        </message>
    </context>
    <context>
        <name>sb::gui::RunsView</name>
        <message>
            <source>Every status</source>
            <translation>所有状态</translation>
        </message>
        <message>
            <source>Refresh</source>
            <translation>刷新</translation>
        </message>
        <message>
            <source>Checkpoints…</source>
            <translation>检查点…</translation>
        </message>
        <message>
            <source>Attach</source>
            <translation>附加</translation>
        </message>
        <message>
            <source>Follow this detached run in the Run area: its backlog is fetched, then its steps as they come</source>
            <translation>在“运行”区域跟踪此分离运行：先获取已有记录，再实时显示新的步骤</translation>
        </message>
        <message>
            <source>No runs yet. Set up a plan, then press Launch in the Run area (or run 'shardbench-cli run PLAN.json'): every run of this store is listed here.</source>
            <translation>还没有运行。请先设置计划，然后在“运行”区域点击启动（或执行 'shardbench-cli run PLAN.json'）：此存储中的每次运行都会列在这里。</translation>
        </message>
        <message>
            <source>No run matches the filter.</source>
            <translation>没有与筛选条件匹配的运行。</translation>
        </message>
        <message>
            <source>Rename, tags and notes…</source>
            <translation>重命名、标签和备注…</translation>
        </message>
        <message>
            <source>Delete run %1…</source>
            <translation>删除运行 %1…</translation>
        </message>
        <message>
            <source>Delete %1 runs…</source>
            <translation>删除 %1 次运行…</translation>
        </message>
        <message>
            <source>Select a run to see its charts, memory, logs, plan and checkpoints; select two or more (Ctrl+click) to compare them and to see how their plans differ.</source>
            <translation>选择一个运行以查看其图表、内存、日志、计划和检查点；选择两个或更多（Ctrl+单击）以比较它们及其计划的差异。</translation>
        </message>
        <message>
            <source>Filter: text, or fields such as world=8 lr&lt;1e-3 param:bf16 loss&lt;3</source>
            <translation>筛选：文本，或字段如 world=8 lr&lt;1e-3 param:bf16 loss&lt;3</translation>
        </message>
        <message>
            <source>Words find runs by name, tag, note, status, reason or plan. KEY:TEXT, KEY=VALUE, KEY&lt;N, KEY&gt;N, KEY&lt;=N and KEY&gt;=N keep the runs whose column matches; keys: world, reshard, param, reduce, offload, micro, batch, lr, loss, eval, rate, peak, duration, status, name, tags.</source>
            <translation>文字按名称、标签、备注、状态、原因或计划查找运行。KEY:TEXT、KEY=VALUE、KEY&lt;N、KEY&gt;N、KEY&lt;=N 和 KEY&gt;=N 保留该列匹配的运行；键：world、reshard、param、reduce、offload、micro、batch、lr、loss、eval、rate、peak、duration、status、name、tags。</translation>
        </message>
        <message>
            <source>Group by</source>
            <translation>分组依据</translation>
        </message>
        <message>
            <source>nothing</source>
            <translation>无</translation>
        </message>
        <message>
            <source>Table</source>
            <translation>表格</translation>
        </message>
        <message>
            <source>Parallel coordinates</source>
            <translation>平行坐标</translation>
        </message>
        <message>
            <source>Every run as a line across its plan&apos;s fields and what it reached: final loss, eval loss, tokens/s, peak memory</source>
            <translation>每次运行是一条线，穿过其计划的字段和所达结果：最终损失、验证损失、词元/秒、峰值内存</translation>
        </message>
        <message>
            <source>Right-click to choose the columns shown</source>
            <translation>右键单击以选择显示的列</translation>
        </message>
    </context>
    <context>
        <name>sb::gui::TargetChooser</name>
        <message>
            <source>Through Slurm (srun from this machine, a login node):</source>
            <translation>通过 Slurm（在本机这一登录节点上运行 srun）：</translation>
        </message>
        <message>
            <source>the default partition</source>
            <translation>默认分区</translation>
        </message>
        <message>
            <source>the default account</source>
            <translation>默认账户</translation>
        </message>
        <message>
            <source>the partition&apos;s limit, e.g. 2:00:00</source>
            <translation>分区的时限，例如 2:00:00</translation>
        </message>
        <message>
            <source>This machine</source>
            <translation>本机</translation>
        </message>
        <message>
            <source>These hosts (over SSH):</source>
            <translation>这些主机（通过 SSH）：</translation>
        </message>
        <message numerus="yes">
            <source>%1 (%n rank(s))</source>
            <translation>
                <numerusform>%1（%n 个 rank）</numerusform>
            </translation>
        </message>
        <message>
            <source>%1 (the plan&apos;s ranks per node)</source>
            <translation>%1（计划中的每节点 rank 数）</translation>
        </message>
    </context>
    <context>
        <name>sb::gui::TimelineChart</name>
        <message>
            <source>root</source>
            <translation>根</translation>
        </message>
        <message>
            <source>start of step</source>
            <translation>步骤开始</translation>
        </message>
        <message>
            <source>pre-forward %1</source>
            <translation>前向前 %1</translation>
        </message>
        <message>
            <source>post-forward %1</source>
            <translation>前向后 %1</translation>
        </message>
        <message>
            <source>loss</source>
            <translation>损失</translation>
        </message>
        <message>
            <source>pre-backward %1</source>
            <translation>反向前 %1</translation>
        </message>
        <message>
            <source>loss backward</source>
            <translation>损失反向</translation>
        </message>
        <message>
            <source>backward %1</source>
            <translation>反向 %1</translation>
        </message>
        <message>
            <source>post-backward %1</source>
            <translation>反向后 %1</translation>
        </message>
        <message>
            <source>optimizer step</source>
            <translation>优化器步骤</translation>
        </message>
        <message>
            <source>peak %1</source>
            <translation>峰值 %1</translation>
        </message>
        <message>
            <source>Memory through one step</source>
            <translation>一个步骤中的内存</translation>
        </message>
        <message>
            <source>forward</source>
            <translation>前向</translation>
        </message>
        <message>
            <source>backward</source>
            <translation>反向</translation>
        </message>
        <message>
            <source>opt.</source>
            <translation>优化</translation>
        </message>
        <message numerus="yes">
            <source>Memory through one step on rank %1 (%n point(s))</source>
            <translation>
                <numerusform>rank %1 在一个步骤中的内存（%n 个点）</numerusform>
            </translation>
        </message>
        <message>
            <source>OVER CAPACITY at the peak: %1</source>
            <translation>峰值处超出容量：%1</translation>
        </message>
        <message>
            <source>Capacity</source>
            <translation>容量</translation>
        </message>
        <message>
            <source>GiB</source>
            <translation>GiB</translation>
        </message>
        <message>
            <source>Total: %1</source>
            <translation>总计：%1</translation>
        </message>
        <message>
            <source>%1: %2</source>
            <translation>%1：%2</translation>
        </message>
    </context>
    <context>
        <name>sb::gui::TrainingPanel</name>
        <message>
            <source>Of a headerless token file (nanoGPT's .bin); auto: uint16 when the vocabulary fits, else uint32. llm.c's and Megatron's files say their own, and a different one here is refused</source>
            <translation>无头 token 文件（nanoGPT 的 .bin）的宽度；自动：词表可容纳时为 uint16，否则为 uint32。llm.c 与 Megatron 的文件自带宽度，此处填写不同的值会被拒绝</translation>
        </message>
        <message>
            <source>auto</source>
            <translation>自动</translation>
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
            <translation>token 宽度</translation>
        </message>
        <message>
            <source>A token file (nanoGPT's headerless .bin, llm.c's .bin, a Megatron .bin/.idx pair) or a text file, or a pattern such as train_*.bin for several; relative to the plan file</source>
            <translation>一个 token 文件（nanoGPT 无头 .bin、llm.c 的 .bin、Megatron 的 .bin/.idx 对）或文本文件，或如 train_*.bin 的模式表示多个文件；相对于计划文件</translation>
        </message>
        <message>
            <source>A pattern: the files it matches where the run trains are read as one stream, in name order.</source>
            <translation>一个模式：在运行训练的位置，匹配的文件按名称顺序作为一个数据流读取。</translation>
        </message>
        <message>
            <source>A token or text file of the training data's kind, in any of its formats; relative to the plan file</source>
            <translation>与训练数据同类的 token 或文本文件，可为任一支持的格式；相对于计划文件</translation>
        </message>
        <message>
            <source>none: a held-out fraction</source>
            <translation>无：使用留出比例</translation>
        </message>
        <message>
            <source>Validation file</source>
            <translation>验证文件</translation>
        </message>
        <message>
            <source>The last fraction of the training file, which training then never reads</source>
            <translation>训练文件末尾的比例部分，训练将不会读取它</translation>
        </message>
        <message>
            <source>none: a validation file</source>
            <translation>无：使用验证文件</translation>
        </message>
        <message>
            <source>Held-out batches of micro-batch x world sequences, the same at every world size; 0 takes no validation loss</source>
            <translation>留出批次，每批为微批次 x 全局进程数个序列，在任何进程数下都相同；0 表示不计算验证损失</translation>
        </message>
        <message>
            <source>Validation loss</source>
            <translation>验证损失</translation>
        </message>
        <message>
            <source>Held-out fraction</source>
            <translation>留出比例</translation>
        </message>
        <message>
            <source>Evaluate every</source>
            <translation>评估间隔</translation>
        </message>
        <message>
            <source>Validation batches</source>
            <translation>验证批次</translation>
        </message>
        <message>
            <source>Micro-batch</source>
            <translation>微批次</translation>
        </message>
        <message>
            <source>Sequence length</source>
            <translation>序列长度</translation>
        </message>
        <message>
            <source>Accumulation steps</source>
            <translation>累积步数</translation>
        </message>
        <message>
            <source>Micro-batches per optimizer step (gradient accumulation without sync)</source>
            <translation>每个优化器步骤的 micro-batch 数（不同步的梯度累积）</translation>
        </message>
        <message>
            <source>%1 tokens per optimizer step across all ranks</source>
            <translation>所有 rank 每个优化器步骤共 %1 个 token</translation>
        </message>
        <message>
            <source>Steps</source>
            <translation>步数</translation>
        </message>
        <message>
            <source>Checkpoint folder</source>
            <translation>检查点文件夹</translation>
        </message>
        <message>
            <source>Checkpoint every</source>
            <translation>检查点间隔</translation>
        </message>
        <message>
            <source>no checkpoints</source>
            <translation>不保存检查点</translation>
        </message>
        <message>
            <source>Where runs save sharded checkpoints (step-NNNNNN folders); relative to the plan file</source>
            <translation>运行保存分片检查点的位置（step-NNNNNN 文件夹）；相对于计划文件</translation>
        </message>
        <message>
            <source>only at the end</source>
            <translation>仅在结束时</translation>
        </message>
        <message>
            <source> steps</source>
            <translation> 步</translation>
        </message>
        <message>
            <source>Learning rate</source>
            <translation>学习率</translation>
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
            <translation>权重衰减</translation>
        </message>
        <message>
            <source>Warmup steps</source>
            <translation>预热步数</translation>
        </message>
        <message>
            <source>Min. LR ratio</source>
            <translation>最小学习率比例</translation>
        </message>
        <message>
            <source>Gradient clipping</source>
            <translation>梯度裁剪</translation>
        </message>
        <message>
            <source>Seed</source>
            <translation>随机种子</translation>
        </message>
        <message>
            <source>Checkpoints kept</source>
            <translation>保留的检查点</translation>
        </message>
        <message>
            <source>Batch</source>
            <translation>批次</translation>
        </message>
        <message>
            <source>Optimizer (AdamW)</source>
            <translation>优化器 (AdamW)</translation>
        </message>
        <message>
            <source>Data</source>
            <translation>数据</translation>
        </message>
        <message>
            <source>Checkpoints</source>
            <translation>检查点</translation>
        </message>
        <message>
            <source>Schedule</source>
            <translation>调度</translation>
        </message>
        <message>
            <source>constant</source>
            <translation>恒定</translation>
        </message>
        <message>
            <source>cosine to the min. LR</source>
            <translation>余弦降至最小学习率</translation>
        </message>
        <message>
            <source>Source</source>
            <translation>来源</translation>
        </message>
        <message>
            <source>synthetic tokens</source>
            <translation>合成词元</translation>
        </message>
        <message>
            <source>token file</source>
            <translation>token 文件</translation>
        </message>
        <message>
            <source>text file (bytes)</source>
            <translation>文本文件（字节）</translation>
        </message>
        <message>
            <source>Choose…</source>
            <translation>选择…</translation>
        </message>
        <message>
            <source>no file</source>
            <translation>无文件</translation>
        </message>
        <message>
            <source>Save in the background (async)</source>
            <translation>后台保存（异步）</translation>
        </message>
        <message>
            <source>off</source>
            <translation>关闭</translation>
        </message>
        <message>
            <source>Arithmetic token sequences, generated on every rank: no file needed.</source>
            <translation>在每个 rank 上生成的等差词元序列：无需文件。</translation>
        </message>
        <message>
            <source>Not on this machine: the run reads it where it trains.</source>
            <translation>不在本机上：运行会在训练所在的机器上读取它。</translation>
        </message>
        <message>
            <source>Looking at the file...</source>
            <translation>正在查看文件……</translation>
        </message>
        <message>
            <source>Not a regular file.</source>
            <translation>不是普通文件。</translation>
        </message>
        <message>
            <source>%1 is not a whole number of %2-bit tokens.</source>
            <translation>%1 不是整数个 %2 位 token。</translation>
        </message>
        <message>
            <source>%1 tokens of %2 bits in a %3 file on this machine.</source>
            <translation>本机上的 %3 文件中有 %1 个 %2 位 token。</translation>
        </message>
        <message>
            <source>%1 tokens: fewer than one sequence of %2.</source>
            <translation>%1 个词元：不足一个长度为 %2 的序列。</translation>
        </message>
        <message>
            <source>%1 tokens (%2) on this machine.</source>
            <translation>本机上有 %1 个词元（%2）。</translation>
        </message>
        <message>
            <source>Choose the data file</source>
            <translation>选择数据文件</translation>
        </message>
        <message>
            <source>Token and text files (*.bin *.idx *.txt);;All files (*)</source>
            <translation>token 和文本文件 (*.bin *.idx *.txt);;所有文件 (*)</translation>
        </message>
    </context>
<context>
    <name>sb::gui::FieldNotes</name>
        <message>
            <source>%1: %2</source>
            <translation>%1：%2</translation>
        </message>
</context>
<context>
    <name>sb::gui::FileBanner</name>
        <message>
            <source>Show the first</source>
            <translation>显示第一个</translation>
        </message>
        <message>
            <source>1 problem in %1: the value the plan cannot use is kept as written and marked in red. Saving keeps it until you fix it.</source>
            <translation>%1 中有 1 个问题：计划无法使用的值按原样保留并以红色标出。保存时会保留它，直到您修正为止。</translation>
        </message>
        <message>
            <source>%1 problems in %2: the values the plan cannot use are kept as written and marked in red. Saving keeps them until you fix them.</source>
            <translation>%2 中有 %1 个问题：计划无法使用的值按原样保留并以红色标出。保存时会保留它们，直到您修正为止。</translation>
        </message>
</context>
<context>
    <name>sb::gui::NumberField</name>
        <message>
            <source>a value is needed</source>
            <translation>需要一个值</translation>
        </message>
        <message>
            <source>&quot;%1&quot; is not a number</source>
            <translation>“%1”不是数字</translation>
        </message>
        <message>
            <source>%1 is not a whole number</source>
            <translation>%1 不是整数</translation>
        </message>
        <message>
            <source>write %1 in digits: %2</source>
            <translation>请用数字写出 %1：%2</translation>
        </message>
        <message>
            <source>%1 is less than %2, the smallest allowed</source>
            <translation>%1 小于允许的最小值 %2</translation>
        </message>
        <message>
            <source>%1 is more than %2, the largest allowed</source>
            <translation>%1 大于允许的最大值 %2</translation>
        </message>
</context>
<context>
    <name>sb::gui::SeriesChart</name>
        <message>
            <source>No data yet</source>
            <translation>暂无数据</translation>
        </message>
        <message>
            <source>%1: %2</source>
            <translation>%1：%2</translation>
        </message>
        <message>
            <source>value</source>
            <translation>值</translation>
        </message>
        <message>
            <source>Reset zoom</source>
            <translation>重置缩放</translation>
        </message>
        <message>
            <source>Logarithmic scale</source>
            <translation>对数刻度</translation>
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
            <translation>名称</translation>
        </message>
        <message>
            <source>Tags</source>
            <translation>标签</translation>
        </message>
        <message>
            <source>Notes</source>
            <translation>备注</translation>
        </message>
</context>
<context>
    <name>sb::gui::RunPage</name>
        <message>
            <source>started from the weights %1</source>
            <translation>从权重 %1 开始</translation>
        </message>
        <message>
            <source>This run wrote no checkpoints. To have them, set a checkpoint folder and an interval in the plan's training settings (Setup, Training, Checkpoints) before launching.</source>
            <translation>此运行未写入检查点。如需检查点，请在启动前于计划的训练设置（设置、训练、检查点）中设定检查点文件夹和间隔。</translation>
        </message>
        <message>
            <source>run %1</source>
            <translation>运行 %1</translation>
        </message>
        <message>
            <source>Run %1 cannot be read from the run store: %2</source>
            <translation>无法从运行存储读取运行 %1：%2</translation>
        </message>
        <message>
            <source>on this machine</source>
            <translation>在本机</translation>
        </message>
        <message>
            <source>through Slurm</source>
            <translation>通过 Slurm</translation>
        </message>
        <message>
            <source>through Slurm on %1</source>
            <translation>通过 Slurm 在 %1</translation>
        </message>
        <message>
            <source>over SSH</source>
            <translation>通过 SSH</translation>
        </message>
        <message>
            <source>over SSH on %1</source>
            <translation>通过 SSH 在 %1</translation>
        </message>
        <message>
            <source>detached, run directory %1</source>
            <translation>分离运行，运行目录 %1</translation>
        </message>
        <message>
            <source>world size %1</source>
            <translation>进程总数 %1</translation>
        </message>
        <message>
            <source>started %1</source>
            <translation>开始于 %1</translation>
        </message>
        <message>
            <source>ran %1</source>
            <translation>运行了 %1</translation>
        </message>
        <message>
            <source>restarts %1 of %2</source>
            <translation>重启 %1 / %2</translation>
        </message>
        <message>
            <source>resumed from run %1</source>
            <translation>从运行 %1 恢复</translation>
        </message>
        <message>
            <source>mean %1</source>
            <translation>平均 %1</translation>
        </message>
        <message>
            <source>%1 unreadable lines from the ranks</source>
            <translation>来自各 rank 的 %1 行无法读取</translation>
        </message>
        <message>
            <source>tags: %1</source>
            <translation>标签：%1</translation>
        </message>
        <message>
            <source>Plan</source>
            <translation>计划</translation>
        </message>
        <message>
            <source>Checkpoints (%1)</source>
            <translation>检查点（%1）</translation>
        </message>
        <message>
            <source>Checkpoints</source>
            <translation>检查点</translation>
        </message>
        <message>
            <source>Verify, export or restore…</source>
            <translation>校验、导出或恢复…</translation>
        </message>
        <message>
            <source>Opens this run in the Checkpoints area</source>
            <translation>在“检查点”区域打开此运行</translation>
        </message>
        <message>
            <source>Charts and memory</source>
            <translation>图表和内存</translation>
        </message>
        <message>
            <source>Logs</source>
            <translation>日志</translation>
        </message>
        <message>
            <source>its recorded plan cannot be read</source>
            <translation>其记录的计划无法读取</translation>
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
            <translation>PyTorch FSDP2：计划导出的脚本</translation>
        </message>
        <message>
            <source>PyTorch: a script of mine</source>
            <translation>PyTorch：我自己的脚本</translation>
        </message>
        <message>
            <source>What every rank runs. A PyTorch script gets torchrun&apos;s environment, reports through shardbench_report.py and resumes from the newest checkpoint in its own folder</source>
            <translation>每个 rank 运行的内容。PyTorch 脚本获得 torchrun 的环境变量，通过 shardbench_report.py 报告，并从其自身文件夹中最新的检查点继续</translation>
        </message>
        <message>
            <source>Script</source>
            <translation>脚本</translation>
        </message>
        <message>
            <source>train.py, where the ranks run</source>
            <translation>train.py，位于 rank 运行的位置</translation>
        </message>
        <message>
            <source>Choose…</source>
            <translation>选择…</translation>
        </message>
        <message>
            <source>Python</source>
            <translation>Python</translation>
        </message>
        <message>
            <source>The Python that runs the script where the ranks run: a path, or a name on the PATH there</source>
            <translation>在 rank 运行处执行脚本的 Python：路径，或该处 PATH 上的名称</translation>
        </message>
        <message>
            <source>Training script</source>
            <translation>训练脚本</translation>
        </message>
        <message>
            <source>Python (*.py);;All files (*)</source>
            <translation>Python (*.py);;所有文件 (*)</translation>
        </message>
        <message>
            <source>Arguments</source>
            <translation>参数</translation>
        </message>
        <message>
            <source>none</source>
            <translation>无</translation>
        </message>
        <message>
            <source>The script&apos;s own arguments, after it on every rank&apos;s command line (quotes group words)</source>
            <translation>脚本自己的参数，位于每个 rank 命令行中脚本之后（引号可将多个词合为一个）</translation>
        </message>
    </context>
</TS>
