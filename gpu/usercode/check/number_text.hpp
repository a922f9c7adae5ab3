#pragma once
// Numbers as the comparison's sentences print them: the shortest text that reads back to the same value, with
// the exponent's leading zeros dropped ("1e-5", not "1e-05"); "nan", "inf", "-inf".
#include <string>

namespace ks::usercode {

std::string number_text(double v);
std::string number_text(float v);

}  // namespace ks::usercode
