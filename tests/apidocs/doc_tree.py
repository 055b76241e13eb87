"""A small API doc tree in the asc-devkit docs' style, written here for the tests (the APIs are made up: Scale,
SoftClip, Convert, GetCoreCount, Reset, TileGuide; no text is taken from the real docs). It has the variations the
extractor must survive: product lists inside `<!-- npu -->` comments and per-variant product lists, per-product type
bullets and a template-parameter table with types, a raw HTML parameter table (pages converted from DITA), a
combination table per product with round modes and a note cell, a page whose prototype takes nothing and has no
parameter section, a "无" parameter section, types listed under the constraints, and a concept page."""

from __future__ import annotations

from pathlib import Path

PRODUCTS_ALL = """## 产品支持情况<a name="section0001"></a>

<!-- npu="950" id1 -->
- Ascend 950PR/Ascend 950DT：支持
<!-- end id1 -->
<!-- npu="910b" id2 -->
- Atlas A2 训练系列产品/Atlas A2 推理系列产品：支持
<!-- end id2 -->
<!-- npu="310b" id3 -->
- Atlas 200I/500 A2 推理产品：不支持
<!-- end id3 -->
<!-- npu="310p" id4 -->
- Atlas 推理系列产品AI Core：支持
- Atlas 推理系列产品Vector Core：不支持
<!-- end id4 -->
"""

SCALE = (
    """# Scale<a name="ZH-CN_TOPIC_1"></a>

"""
    + PRODUCTS_ALL
    + """
## 功能说明<a name="section0002"></a>

头文件路径为：`"basic_api/kernel_operator_vec_scale_intf.h"`。

把每个元素乘以同一个标量。

## 函数原型<a name="section0003"></a>

- 前n个数据计算

    ```cpp
    template <typename T>
    __aicore__ inline void Scale(const LocalTensor<T>& dst, const LocalTensor<T>& src, const T& factor, const int32_t& count)
    ```

- 高维切分计算

    ```cpp
    template <typename T, bool isSetMask = true>
    __aicore__ inline void Scale(const LocalTensor<T>& dst, const LocalTensor<T>& src, const T& factor, uint64_t mask, const uint8_t repeatTime, const UnaryRepeatParams& repeatParams)
    ```

## 参数说明<a name="section0004"></a>

**表1** 模板参数说明

<a name="table01"></a>

| 参数名 | 描述 |
|---|---|
| T | 操作数数据类型。 |
| isSetMask | 是否在接口内部设置mask。 |

**表2** 参数说明

| 参数名 | 输入/输出 | 描述 |
|---|---|---|
| dst | 输出 | 目的操作数。<br>类型为[LocalTensor](../LocalTensor.md)。 |
| src | 输入 | 源操作数。 |
| factor | 输入 | 标量因子，与src同类型。 |
| count | 输入 | 参与计算的元素个数。 |
| mask、repeatTime | 输入 | 控制每次迭代的元素和迭代次数。 |
| repeatParams | 输入 | 地址步长参数。 |

## 数据类型

<!-- npu="950" id5 -->
- 针对Ascend 950PR/Ascend 950DT，T支持的数据类型为：half、bfloat16_t、float、int32_t。
<!-- end id5 -->
<!-- npu="910b" id6 -->
- 针对Atlas A2 训练系列产品/Atlas A2 推理系列产品，T支持的数据类型为：half、float。
<!-- end id6 -->
<!-- npu="310p" id7 -->
- 针对Atlas 推理系列产品AI Core
    - T支持的数据类型为：half。
<!-- end id7 -->

## 返回值说明

无

## 约束说明<a name="section0005"></a>

- 操作数地址需要32字节对齐。
- 当count为0时：
    - 不执行计算。
- repeatTime取值范围为[0, 255]。

## 调用示例<a name="section0006"></a>

```cpp
AscendC::Scale(dstLocal, srcLocal, static_cast<half>(2.0), 256);
```
"""
)

SOFTCLIP = """# SoftClip

## 产品支持情况

### 不带config的原型
- Atlas A2 训练系列产品/Atlas A2 推理系列产品：支持
- Atlas 推理系列产品AI Core：不支持

### 带config的原型
- Atlas A2 训练系列产品/Atlas A2 推理系列产品：不支持
- Atlas 推理系列产品AI Core：支持

## 功能说明

按元素把输入平滑地限制在区间内。

## 函数原型

```
template <typename T, bool isReuseSource = false>
__aicore__ inline void SoftClip(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor, const LocalTensor<uint8_t>& sharedTmpBuffer, const uint32_t calCount)
```

## 参数说明

<table><thead><tr><th><p>参数名</p></th><th><p>描述</p></th></tr></thead>
<tbody><tr><td><p>T</p></td><td><p>操作数的数据类型。支持的数据类型为：half、float。</p></td></tr>
<tr><td><p>isReuseSource</p></td><td><p>是否允许修改源操作数。</p></td></tr>
</tbody></table>

<table><thead><tr><th><p>参数名</p></th><th><p>输入/输出</p></th><th><p>描述</p></th></tr></thead>
<tbody><tr><td><p>dstTensor</p></td><td><p>输出</p></td><td><p>目的操作数。</p><p>与源操作数同类型。</p></td></tr>
<tr><td><p>srcTensor</p></td><td><p>输入</p></td><td><p>源操作数。</p></td></tr>
<tr><td><p>sharedTmpBuffer</p></td><td><p>输入</p></td><td><p>临时空间，支持的数据类型为：uint8_t。</p></td></tr>
<tr><td><p>calCount</p></td><td><p>输入</p></td><td><p>参与计算的元素个数。</p></td></tr>
</tbody></table>

## 返回值说明

无

## 约束说明

- 不支持源操作数与目的操作数地址重叠。
"""

CONVERT = (
    """# Convert

"""
    + PRODUCTS_ALL
    + """
## 功能说明

头文件路径为 `"basic_api/kernel_operator_vec_convert_intf.h"`。按舍入模式转换精度。

## 函数原型

```cpp
template <typename T, typename U>
__aicore__ inline void Convert(const LocalTensor<T>& dst, const LocalTensor<U>& src, const RoundMode& roundMode, const uint32_t count)
```

## 参数说明

| 参数名 | 输入/输出 | 描述 |
|---|---|---|
| dst | 输出 | 目的操作数。 |
| src | 输入 | 源操作数。 |
| roundMode | 输入 | 舍入模式。 |
| count | 输入 | 元素个数。 |

## 数据类型

<!-- npu="910b" id8 -->
**表** Atlas A2 训练系列产品/Atlas A2 推理系列产品支持的数据类型组合情况

| src数据类型 | dst数据类型 | 支持的roundMode |
| :--- | :--- | :--- |
| half | float | CAST_NONE |
| float | half | CAST_RINT/CAST_ODD/CAST_NONE |
| int32_t | half | roundMode不生效，需要先设置缩放系数。 |
<!-- end id8 -->

<!-- npu="310p" id9 -->
**表** Atlas 推理系列产品AI Core支持的数据类型组合情况

| src数据类型 | dst数据类型 | 支持的roundMode |
| :--- | :--- | :--- |
| half | float | CAST_NONE |
<!-- end id9 -->

## 约束说明

- 转换前后元素个数相同。

## 调用示例

```cpp
AscendC::Convert(dstLocal, srcLocal, AscendC::RoundMode::CAST_RINT, 512);
```
"""
)

GET_CORE_COUNT = """# GetCoreCount

## 功能说明

返回当前可用的核数。

## 函数原型

```cpp
__aicore__ inline int64_t GetCoreCount()
```

## 返回值说明

核数。

## 约束说明

无
"""

RESET = """# Reset

## 功能说明

恢复默认状态。

## 函数原型

```cpp
__aicore__ inline void Reset(int32_t mode)
```

## 参数说明

无

## 约束说明

- 只在核函数内调用。
"""

TILE_GUIDE = """# TileGuide

## 总体说明

一页概念说明，没有函数原型。

## 使用建议

- 先切分，再搬运。
"""

PAIR = """# Widen

## 产品支持情况

- Atlas A2 训练系列产品/Atlas A2 推理系列产品：支持
- Atlas 200I/500 A2 推理产品：支持

## 函数原型

```cpp
template <typename T, typename U>
__aicore__ inline void Widen(const LocalTensor<T>& dst, const LocalTensor<U>& src, const uint32_t count)
```

## 参数说明

| 参数名 | 输入/输出 | 描述 |
|---|---|---|
| dst | 输出 | 目的操作数。 |
| src | 输入 | 源操作数。 |
| count | 输入 | 元素个数。 |

## 约束说明

- 支持的数据类型
    - Atlas A2 训练系列产品/Atlas A2 推理系列产品，T和U支持的数据类型为：int16_t、int32_t。
    - Atlas 200I/500 A2 推理产品，T和U支持的数据类型为：int16_t。
"""

PAGES = {
    "SIMD-API/基础API/Memory矢量计算/基础算术/Scale.md": SCALE,
    "SIMD-API/高阶API/数学计算/SoftClip接口/SoftClip.md": SOFTCLIP,
    "SIMD-API/基础API/Memory矢量计算/类型转换/Convert.md": CONVERT,
    "SIMD-API/基础API/工具接口/GetCoreCount.md": GET_CORE_COUNT,
    "SIMD-API/基础API/资源管理/Reset.md": RESET,
    "SIMD-API/基础API/Memory矢量计算/指南/TileGuide.md": TILE_GUIDE,
    "SIMD-API/基础API/Memory矢量计算/类型转换/Widen.md": PAIR,
    "附录/接口变更说明.md": "# 接口变更说明\n\n| 旧接口 | 新接口 |\n|---|---|\n| OldScale | Scale |\n",
}


def write_tree(root: Path) -> Path:
    """Write the pages under root/docs/zh/api (an asc-devkit checkout's layout); returns the docs folder."""
    docs = root / "docs" / "zh" / "api"
    for rel, text in PAGES.items():
        (docs / rel).parent.mkdir(parents=True, exist_ok=True)
        (docs / rel).write_text(text, encoding="utf-8")
    return docs
