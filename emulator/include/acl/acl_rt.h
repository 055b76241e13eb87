#pragma once
#include "acl.h"
