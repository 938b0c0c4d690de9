// Attend's public API: include this one header.
#pragma once

#include "attend/document.h"
#include "attend/error.h"
#include "attend/html.h"
#include "attend/model.h"
#include "attend/translator.h"
