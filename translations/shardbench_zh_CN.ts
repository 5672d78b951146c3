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
        <name>sb::gui::FileController</name>
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
            <source>Sharded gradients, in the parameters' dtype</source>
            <translation>分片梯度，使用参数的数据类型</translation>
        </message>
        <message>
            <source>AdamW exp_avg and exp_avg_sq, in the parameters' dtype</source>
            <translation>AdamW 的 exp_avg 与 exp_avg_sq，使用参数的数据类型</translation>
        </message>
    </context>
    <context>
        <name>sb::gui::MainActionsText</name>
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
            <source>&lt;p&gt;&lt;b&gt;shardbench&lt;/b&gt; %1&lt;/p&gt;&lt;p&gt;A workbench for FSDP2-style sharded training: design a sharding plan, see every rank's memory, and export the plan as a PyTorch FSDP2 script.&lt;/p&gt;</source>
            <translation>&lt;p&gt;&lt;b&gt;shardbench&lt;/b&gt; %1&lt;/p&gt;&lt;p&gt;面向 FSDP2 式分片训练的工作台：设计分片计划，查看每个 rank 的内存，并将计划导出为 PyTorch FSDP2 脚本。&lt;/p&gt;</translation>
        </message>
    </context>
    <context>
        <name>sb::gui::MemoryView</name>
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
            <source>The output projection shares the token embedding's weight</source>
            <translation>输出投影与 token 嵌入共享权重</translation>
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
            <source>Not set: the parameters' own dtype</source>
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
            <source>MixedPrecisionPolicy.output_dtype: the dtype the unit's outputs are cast to</source>
            <translation>MixedPrecisionPolicy.output_dtype：单元输出被转换成的数据类型</translation>
        </message>
        <message>
            <source>CPUOffloadPolicy: sharded parameters, gradients and optimizer state on the host</source>
            <translation>CPUOffloadPolicy：分片参数、梯度和优化器状态放在主机上</translation>
        </message>
        <message>
            <source>Activation checkpointing: keep only the unit's input and recompute in backward</source>
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
        <name>sb::gui::ProblemText</name>
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
            <source>seq_len %1 exceeds the model's position table (max_seq_len %2)</source>
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
            <source>schedule must be "constant" or "cosine", got "%1"</source>
            <translation>schedule 必须为 "constant" 或 "cosine"，实际为 "%1"</translation>
        </message>
        <message>
            <source>min_lr_ratio must lie in [0, 1]</source>
            <translation>min_lr_ratio 必须位于 [0, 1] 之间</translation>
        </message>
        <message>
            <source>a tokens or text data source needs a "path"</source>
            <translation>tokens 或 text 数据源需要 "path"</translation>
        </message>
        <message>
            <source>a checkpoint interval needs a checkpoint "dir"</source>
            <translation>检查点间隔需要检查点 "dir"</translation>
        </message>
        <message>
            <source>unsupported plan version %1</source>
            <translation>不支持的计划版本 %1</translation>
        </message>
        <message>
            <source>missing integer "version"</source>
            <translation>缺少整数 "version"</translation>
        </message>
        <message>
            <source>plan format version %1 is not supported (this build reads version %2)</source>
            <translation>不支持计划格式版本 %1（此版本读取版本 %2）</translation>
        </message>
        <message>
            <source>not a shardbench plan: "format" must be "shardbench-plan"</source>
            <translation>不是 shardbench 计划："format" 必须为 "shardbench-plan"</translation>
        </message>
        <message>
            <source>invalid JSON at %1</source>
            <translation>%1 处的 JSON 无效</translation>
        </message>
        <message>
            <source>unknown field "%1" is ignored</source>
            <translation>未知字段 "%1" 已忽略</translation>
        </message>
        <message>
            <source>the model has no parameters</source>
            <translation>模型没有参数</translation>
        </message>
        <message>
            <source>parameter "%1" is a scalar; fully_shard cannot shard 0-dim parameters (make it 1-D or list it in ignored_params)</source>
            <translation>参数 "%1" 是标量；fully_shard 无法对 0 维参数分片（请改为 1 维，或将其列入 ignored_params）</translation>
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
            <source>unit "%1" owns no parameters (its children are all units)</source>
            <translation>单元 "%1" 不拥有任何参数（其子模块都是单元）</translation>
        </message>
        <message>
            <source>unknown module "%1": the model has no module of that name</source>
            <translation>未知模块 "%1"：模型中没有该名称的模块</translation>
        </message>
        <message>
            <source>the root is listed as a unit more than once</source>
            <translation>根被多次列为单元</translation>
        </message>
        <message>
            <source>"%1" is listed as a unit more than once</source>
            <translation>"%1" 被多次列为单元</translation>
        </message>
        <message>
            <source>unknown parameter "%1"</source>
            <translation>未知参数 "%1"</translation>
        </message>
        <message>
            <source>parameter "%1" is tied to "%2" but they fall into different units (%3 and %4); make both modules part of one unit</source>
            <translation>参数 "%1" 与 "%2" 共享权重，但二者位于不同单元（%3 和 %4）；请让两个模块属于同一个单元</translation>
        </message>
        <message>
            <source>prefetch target "%1" is not a shard unit</source>
            <translation>预取目标 "%1" 不是分片单元</translation>
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
            <source>grouped-query attention (n_kv_heads != n_heads) needs the llama architecture</source>
            <translation>分组查询注意力 (n_kv_heads != n_heads) 需要 llama 架构</translation>
        </message>
        <message>
            <source>RoPE needs an even head dimension, got %1</source>
            <translation>RoPE 需要偶数的头维度，实际为 %1</translation>
        </message>
        <message>
            <source>not a shardbench module tree (format must be "shardbench-module-tree")</source>
            <translation>不是 shardbench 模块树（format 必须为 "shardbench-module-tree"）</translation>
        </message>
        <message>
            <source>unsupported module-tree version (this build reads version 1)</source>
            <translation>不支持的模块树版本（此版本读取版本 1）</translation>
        </message>
        <message>
            <source>"modules" must be a non-empty array, root first</source>
            <translation>"modules" 必须是非空数组，且根在最前</translation>
        </message>
        <message>
            <source>module "%1" is empty or listed twice</source>
            <translation>模块 "%1" 为空或重复列出</translation>
        </message>
        <message>
            <source>module "%1" appears before its parent "%2"</source>
            <translation>模块 "%1" 出现在其父模块 "%2" 之前</translation>
        </message>
        <message>
            <source>"shape" must be an array of non-negative integers</source>
            <translation>"shape" 必须是非负整数数组</translation>
        </message>
        <message>
            <source>tied_to names unknown parameter "%1"</source>
            <translation>tied_to 指向未知参数 "%1"</translation>
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
            <source>Micro-batch</source>
            <translation>Micro-batch</translation>
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
    </context>
</TS>
